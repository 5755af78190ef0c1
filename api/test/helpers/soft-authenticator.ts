import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/**
 * A software passkey authenticator written from the WebAuthn Level 3 specification (§6.1 authenticator
 * data, §6.5.4 the 'none' attestation, §5.8.1 client data): ES256 (P-256, COSE alg -7) keys made with
 * node:crypto, attestation objects and assertions encoded in CBOR by hand. It answers the JSON options the
 * server hands a browser with the JSON a browser would send back. Nothing of the server is used.
 */

// --- The little CBOR the spec's structures need (RFC 8949: unsigned, negative, bytes, text, map) -------
function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

type Cbor = number | string | Buffer | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (value: Buffer) => value.toString('base64url');
const sha256 = (value: Buffer | string) => createHash('sha256').update(value).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: Buffer;
  counter: number;
}

export interface CreationOptionsJson {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

export interface RequestOptionsJson {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftAuthenticator {
  readonly credentials: StoredCredential[] = [];

  constructor(
    /** The page's origin, written into the client data. */
    public origin: string,
    /** Whether the authenticator reports that the user was verified (a PIN, a fingerprint). */
    public userVerified = true,
  ) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() with 'none' attestation: the RegistrationResponseJSON. */
  create(options: CreationOptionsJson) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(32);
    // COSE_Key (RFC 9053): kty 2 (EC2), alg -7 (ES256), crv 1 (P-256), x, y.
    const coseKey = cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey]);
    const flags = FLAG_UP | (this.userVerified ? FLAG_UV : 0) | FLAG_AT;
    const authData = this.authData(rpId, flags, 0, attested);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({
      id,
      privateKey,
      rpId,
      userHandle: Buffer.from(options.user.id, 'base64url'),
      counter: 0,
    });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): the AuthenticationResponseJSON of the first usable credential. */
  get(options: RequestOptionsJson, pick?: Buffer) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = (options.allowCredentials ?? []).map((c) => c.id);
    const credential = this.credentials.find(
      (c) =>
        c.rpId === rpId &&
        (pick === undefined || c.id.equals(pick)) &&
        (allowed.length === 0 || allowed.includes(b64url(c.id))),
    );
    if (credential === undefined) throw new Error('no credential for this request');
    credential.counter += 1;
    const authData = this.authData(rpId, FLAG_UP | (this.userVerified ? FLAG_UV : 0), credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: b64url(credential.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
