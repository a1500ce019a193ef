/** A file read only when it is a regular file and only up to a limit: a path naming /dev/zero, a FIFO or a folder must not fill the memory or hang. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type PlainFile = { text: string } | { problem: string; missing?: true };

/** `what` names the file in the messages: "a secret file", "a key set"… */
export function readPlainFile(path: string, maxBytes: number, what = 'a file read here'): PlainFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: `the file ${path} cannot be read (${code ?? (error as Error).message})`, ...(code === 'ENOENT' ? { missing: true as const } : {}) };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { problem: `${path} is not a regular file (a folder, FIFO, device or socket): ${what} is read from a plain file` };
    if (info.size > maxBytes) return { problem: `the file ${path} is ${info.size} bytes; ${what} holds at most ${maxBytes}` };
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, info.size + 65_536));
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes || length === buffer.length) return { problem: `the file ${path} grew while it was read; ${what} holds at most ${maxBytes} bytes` };
    return { text: buffer.toString('utf8', 0, length) };
  } catch (error) {
    return { problem: `the file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  } finally {
    closeSync(fd);
  }
}
