/**
 * Preloaded by `npm run build` (`node --import`): at most FILE_IO_LIMIT file operations of the
 * promise API at once in each build process. Next's build tracer (@vercel/nft) reads up to 1,024
 * files at once, the whole budget of a process whose open-file limit is 1,024, so "Collecting build
 * traces" failed with EMFILE on such a machine. Bounding the reads keeps every build under the limit
 * (no retry: an operation waits for a free slot before it opens anything).
 */
import fs from 'node:fs';

export const FILE_IO_LIMIT = Number(process.env.NEXT_BUILD_FILE_IO_LIMIT || 128);
// Each opens a file or a directory and closes it before it resolves (open() is left alone: its
// handle outlives the call, so a slot could not bound it).
export const LIMITED = ['readFile', 'writeFile', 'stat', 'lstat', 'readlink', 'realpath', 'readdir', 'copyFile'];

let active = 0;
const waiting = [];

function acquire() {
  if (active < FILE_IO_LIMIT) {
    active += 1;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release() {
  const next = waiting.shift();
  if (next) next();
  else active -= 1;
}

export function inFlight() {
  return active;
}

for (const name of LIMITED) {
  const original = fs.promises[name];
  if (typeof original !== 'function' || original.limited) continue;
  const limited = async function (...args) {
    await acquire();
    try {
      return await original.apply(this, args);
    } finally {
      release();
    }
  };
  limited.limited = true;
  fs.promises[name] = limited;
}
