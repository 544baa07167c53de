/** Simulated wait before the login or registration action (spec 01 §9). */
export const SIMULATED_WAIT_MS = 1000;
