/**
 * A refusal or failure thrown by feature logic, with the reason its route maps to the contract's
 * error. Logic knows nothing of HTTP: each feature names its reasons as a union and subclasses this
 * (`class PostsFailure extends ReasonedError<PostsFailureReason>`), and its route switches on `reason`.
 */
export class ReasonedError<Reason extends string> extends Error {
  readonly reason: Reason;

  constructor(reason: Reason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}
