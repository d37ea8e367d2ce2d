/** A request the space provider refuses: the status it answers with, and why (the detailed message). */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
