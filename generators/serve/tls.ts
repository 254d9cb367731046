import { createPrivateKey, X509Certificate } from 'node:crypto';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { readRegularFile, USER_FILE_REASONS } from '../shared/read-user-file.js';

/** A PEM certificate chain or key is a few kilobytes: anything past this bound is not one. */
const MAX_PEM_BYTES = 1024 * 1024;

/** The certificate and key `eventry serve` answers HTTPS with, or which flag's file is wrong and why. */
export type TlsFiles =
  | { ok: true; cert: string; key: string }
  | { ok: false; flag: '--tls-cert' | '--tls-key' | '--tls-cert and --tls-key'; reason: string };

/** Reads one file the user named on the command line, bounded and regular; the reason never quotes it. */
function readPem(cwd: string, file: string): { text: string } | { reason: string } {
  try {
    return { text: readRegularFile(resolve(cwd, file), MAX_PEM_BYTES) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') return { reason: 'no such file' };
    if (code === 'EFBIG') return { reason: `it is larger than ${MAX_PEM_BYTES / 1024} KiB, not a PEM file` };
    if (code === 'ENOTUTF8') return { reason: 'it is binary, not a PEM file (convert a DER file to PEM)' };
    return { reason: USER_FILE_REASONS[code] ?? `it cannot be read (${code || 'unknown error'})` };
  }
}

/**
 * Reads and checks `--tls-cert` and `--tls-key` (paths relative to `cwd`): each a readable PEM file,
 * the certificate an X.509 certificate, the key an unencrypted private key, and the two a pair.
 * Nothing of either file's content is ever part of a reason.
 */
export function loadTlsFiles(cwd: string, certFile: string, keyFile: string): TlsFiles {
  const cert = readPem(cwd, certFile);
  if ('reason' in cert) return { ok: false, flag: '--tls-cert', reason: `${certFile}: ${cert.reason}` };
  const key = readPem(cwd, keyFile);
  if ('reason' in key) return { ok: false, flag: '--tls-key', reason: `${keyFile}: ${key.reason}` };
  try {
    new X509Certificate(cert.text);
  } catch {
    return { ok: false, flag: '--tls-cert', reason: `${certFile}: not a PEM certificate` };
  }
  try {
    createPrivateKey(key.text);
  } catch {
    return {
      ok: false,
      flag: '--tls-key',
      reason: `${keyFile}: not an unencrypted PEM private key`,
    };
  }
  try {
    createSecureContext({ cert: cert.text, key: key.text });
  } catch {
    return {
      ok: false,
      flag: '--tls-cert and --tls-key',
      reason: `the key in ${keyFile} is not the private key of the certificate in ${certFile}`,
    };
  }
  return { ok: true, cert: cert.text, key: key.text };
}
