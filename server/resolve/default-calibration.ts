import type { CalibrationModel } from './calibration.js';
import type { Calibrations } from './hybrid-resolver.js';
import fitted from './calibration.json';

/**
 * The semantic weights of the hybrid model are a prior, not a fit: the default embedding model
 * cannot be downloaded where the development sets were calibrated. `grimoire calibrate` on a
 * machine with the model cached is how to fit them.
 */
export const HYBRID_PRIOR: CalibrationModel = {
  bias: 0,
  lead: 0,
  strength: 0,
  coverage: 0,
  semantic: 0,
  semanticLead: 4,
  fitted: {
    note: 'semantic weights are a prior: the default model was not available where the development sets were calibrated',
  },
};

export const DEFAULT_CALIBRATIONS: Calibrations = fitted as Calibrations;

/** The least confidence at which every development set's out-of-sample activated precision is .97 or more. */
export const FITTED_ACTIVATE_THRESHOLD = DEFAULT_CALIBRATIONS.activateThreshold ?? 0.85;
