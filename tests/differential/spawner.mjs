// A small helper process that runs commands for main.mjs: forking the main
// process, which holds DuckDB and every file's rows, costs tens of
// milliseconds a command; forking this one costs little.
// Protocol: one JSON request a line on stdin, {id, file, args}; one JSON
// reply a line on stdout, {id, code, out, err}.
import { execFile } from 'node:child_process';
import readline from 'node:readline';

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  const { id, file, args } = JSON.parse(line);
  execFile(file, args, { maxBuffer: 1 << 30 }, (error, stdout, stderr) => {
    const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
    process.stdout.write(JSON.stringify({ id, code, out: stdout, err: error && !stderr ? String(error.message) : stderr }) + '\n');
  });
});
