/** A request the space provider refuses: the status it answers with, and why (the detailed message). */
export { HttpError as Refusal } from '../provider-control.ts';
