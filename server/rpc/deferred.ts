/** A promise settled from outside, for requests that wait until the gateway is up. */
export class Deferred<T> {
  readonly promise: Promise<T>;
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  settled = false;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = (value) => {
        this.settled = true;
        resolve(value);
      };
      this.reject = (error) => {
        this.settled = true;
        reject(error);
      };
    });
    // A failed start is answered to whoever asks later; nobody waiting is not an error.
    this.promise.catch(() => undefined);
  }
}
