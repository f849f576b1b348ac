// Trunk post-build hook, before integrity is hashed: the stylesheet and the app's own scripts
// lose their comments and layout, which the browser never reads. Only what cannot change
// meaning is removed: comments outside strings, and whitespace beside CSS punctuation.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// CSS: strings kept whole; comments dropped; runs of whitespace made one space, then none
// beside { } ; , > and after a declaration's colon.
export function minifyCss(css) {
  let out = '';
  for (let i = 0; i < css.length; ) {
    const c = css[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1;
      out += css.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end < 0) throw new Error('minify: unclosed CSS comment');
      i = end + 2;
    } else if (/\s/.test(c)) {
      while (i < css.length && /\s/.test(css[i])) i++;
      out += ' ';
    } else {
      out += c;
      i++;
    }
  }
  // Outside strings only: split on them again and squeeze the rest.
  return out
    .split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/)
    .map((part, k) =>
      k % 2 ? part : part.replace(/ ?([{};,>]) ?/g, '$1').replace(/([{;][a-z-]+): /g, '$1:'),
    )
    .join('')
    .replace(/;}/g, '}')
    .trim();
}

// JS: whole-line comments only (// … and /** … */ blocks a generator writes); code, strings
// and template literals untouched.
export function stripJsComments(js) {
  return js
    .replace(/^[ \t]*\/\*\*[\s\S]*?\*\/[ \t]*\n/gm, '')
    .replace(/^[ \t]*\/\/[^\n]*\n/gm, '');
}

const dir = process.env.TRUNK_STAGING_DIR;
if (dir) {
  const walk = (d) =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  for (const f of walk(dir)) {
    if (f.endsWith('.css')) writeFileSync(f, minifyCss(readFileSync(f, 'utf8')));
    else if (f.endsWith('.js')) writeFileSync(f, stripJsComments(readFileSync(f, 'utf8')));
  }
}
