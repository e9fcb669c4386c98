// The SSH wire encoding (RFC 4251): uint32 big-endian lengths before byte
// strings. Used by public key lines and the openssh-key-v1 private format.

export class SshReader {
  private pos = 0;
  constructor(
    private readonly buf: Buffer,
    private readonly what: string,
  ) {}

  uint32(): number {
    if (this.pos + 4 > this.buf.length) throw new Error(`${this.what} is truncated`);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  bytes(): Buffer {
    const len = this.uint32();
    if (this.pos + len > this.buf.length) throw new Error(`${this.what} is truncated`);
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    return this.bytes().toString('latin1');
  }

  rest(): Buffer {
    const out = this.buf.subarray(this.pos);
    this.pos = this.buf.length;
    return out;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }
}

export function sshString(data: Uint8Array | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

/** The wire blob of an Ed25519 public key, as in the middle field of an `ssh-ed25519` line. */
export function sshEd25519Blob(raw: Uint8Array): Buffer {
  return Buffer.concat([sshString('ssh-ed25519'), sshString(raw)]);
}
