// The load agent pods' init container (agents/job, agents/pool): saves the server's own `aqa` command
// line (GET /downloads/aqa.mjs, docs/reference/02-running.md §7) where the agent container runs it, so
// an agent is always the server's version and its image is plain Node 20.
//   node fetch-aqa.mjs <url> <file> [attempts] [seconds between attempts]
// The server may still be starting when the agents are: a refused connection or a non-200 answer is
// tried again, and after the last attempt the pod fails with what the server (or the network) said.
import { renameSync, writeFileSync } from 'node:fs';

const [url, file, attemptsText = '60', delayText = '5'] = process.argv.slice(2);
const attempts = Number(attemptsText);
const delaySeconds = Number(delayText);
if (url === undefined || file === undefined || !(attempts >= 1) || !(delaySeconds >= 0)) {
  process.stderr.write('usage: node fetch-aqa.mjs <url> <file> [attempts >= 1] [seconds >= 0]\n');
  process.exit(2);
}

/** One try: the program's bytes, or an Error that says why not. */
async function fetchOnce() {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new Error(`${url} could not be reached${cause}`, { cause: error });
  }
  if (response.status !== 200) {
    const words = (await response.text()).slice(0, 300);
    throw new Error(`${url} answered ${response.status}: ${words}`);
  }
  return Buffer.from(await response.arrayBuffer());
}

for (let attempt = 1; ; attempt++) {
  try {
    const program = await fetchOnce();
    // Written whole, then renamed: the agent container never starts on half a file.
    writeFileSync(`${file}.part`, program);
    renameSync(`${file}.part`, file);
    process.stdout.write(`Saved ${url} (${program.length} bytes) as ${file}\n`);
    break;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (attempt >= attempts) {
      process.stderr.write(`Gave up after ${attempt} attempts: ${reason}\n`);
      process.exit(1);
    }
    process.stderr.write(`Attempt ${attempt} of ${attempts}: ${reason}; trying again in ${delaySeconds} s\n`);
    await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));
  }
}
