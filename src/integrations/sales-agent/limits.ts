/**
 * Bounds on what a sales-agent backend can make the relay do. A misbehaving or malicious agent (huge
 * frames, non-JSON, an endless stream, silence) ends the request with an `error` event; it can neither
 * exhaust memory nor hold a request open. The timeouts are defaults for the SALES_AGENT_* variables.
 */
export const SALES_AGENT_LIMITS = {
  /** Opening the WebSocket (TCP + TLS + HTTP upgrade) must finish within this. */
  connectTimeoutMs: 10_000,
  /** Longest silence between two agent frames (also before the first one). */
  idleTimeoutMs: 30_000,
  /** Longest a whole answer may stream, from the query frame to `done`. */
  maxDurationMs: 180_000,
  /** Largest single frame accepted from the agent; a larger one closes the connection (1009). */
  maxFrameBytes: 256 * 1024,
  /** Largest answer (sum of `token` contents, and `done.content`), in characters. */
  maxAnswerChars: 100_000,
  /** Largest `metadata` of a `done` frame, serialized as JSON, in UTF-8 bytes. */
  maxMetadataBytes: 32 * 1024,
  /**
   * Deepest nesting of a `done` frame's `metadata` (the object itself is level 1). Serialising it is
   * recursive, so a deeper one that still fits in a frame (~120 000 levels) would overflow the stack.
   */
  maxMetadataDepth: 64,
  /** Longest an agent's `error.message` is passed on to the visitor. */
  maxErrorMessageChars: 500,
  /** The history request (connect + answer) must finish within this. */
  historyTimeoutMs: 5_000,
} as const;
