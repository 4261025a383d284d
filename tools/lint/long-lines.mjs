// Part of `npm run lint`: counts the lines over LIMIT characters in the files Prettier formats (its own
// file list: .prettierignore and .gitignore honoured) and fails above BUDGET, naming each. Prettier wraps
// code at 120; what it cannot wrap (a long regular expression, a comment) is wrapped by hand.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';

const LIMIT = 140;
const BUDGET = 25;
const root = process.cwd();
const ignorePath = ['.gitignore', '.prettierignore'].map((name) => path.join(root, name));

async function* formatted(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === 'node_modules') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(await prettier.getFileInfo(path.join(file, 'x'), { ignorePath })).ignored) yield* formatted(file);
    } else if (entry.isFile()) {
      const info = await prettier.getFileInfo(file, { ignorePath });
      if (!info.ignored && info.inferredParser) yield file;
    }
  }
}

const over = [];
for await (const file of formatted(root)) {
  fs.readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .forEach((line, i) => {
      const length = [...line].length;
      if (length > LIMIT) over.push(`${path.relative(root, file)}:${i + 1}: ${length} characters`);
    });
}
if (over.length > BUDGET) {
  console.error(over.join('\n'));
  console.error(
    `${over.length} lines over ${LIMIT} characters (at most ${BUDGET}): wrap them (split a long string with +)`,
  );
  process.exit(1);
}
