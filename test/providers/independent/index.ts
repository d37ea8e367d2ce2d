export type { BankSandbox, BankSandboxOptions } from './bank-sandbox.ts';
export { BANK_SANDBOX_DEFAULTS, startBankSandbox } from './bank-sandbox.ts';
export type { MutantDefinition, MutantName } from './mutants.ts';
export { MUTANT_NAMES, MUTANTS } from './mutants.ts';
