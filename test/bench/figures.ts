/** The middle value (the upper one of an even count), as the benchmarks report medians. */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `x` to `digits` decimals. */
export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
