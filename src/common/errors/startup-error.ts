/** A start-up failure an operator fixes through configuration: `variable` names where to look. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}
