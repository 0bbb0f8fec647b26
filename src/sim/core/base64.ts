// Base64 as Go's encoding/base64 StdEncoding and encoding/json have it: a []byte in JSON is base64 of its bytes, and
// the model's values are text, so UTF-8 on the way in and out. One place for the API server (a Secret's data), the
// kubelet (what a container reads of it), kubectl (create secret, describe) and podlife serve.

/** Bytes as base64. */
export function base64FromBytes(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Text's UTF-8 bytes as base64. */
export function base64FromText(text: string): string {
  return base64FromBytes(new TextEncoder().encode(text));
}

/** A base64 value's bytes as text (Go's string() of them, printed: an invalid UTF-8 sequence as U+FFFD). */
export function textFromBase64(b64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}

/** How many bytes a valid base64 value decodes to (Go's len of the []byte). */
export function base64DecodedLength(b64: string): number {
  return Math.floor((b64.replace(/=+$/, '').length * 3) / 4);
}
