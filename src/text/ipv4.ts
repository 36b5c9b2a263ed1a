/** A dotted-quad IPv4 address exactly as ipaddr.js would print it (no leading zeros, no spaces). */
export const PRINTED_IPV4 =
  /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
