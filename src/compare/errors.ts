/**
 * A comparison that could not be carried out (unreachable node, wrong credentials, a reply that
 * never came): distinct from a comparison that found differences, so the command can exit with
 * a different status and a message naming the side and what went wrong.
 */
export class CompareError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompareError';
  }
}
