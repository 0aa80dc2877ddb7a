// legi_to_docs.js DATA_DIR OUT_DIR: turns the codes of @socialgouv/legi-data (JSON trees of the
// French LEGI database, Apache-2.0, see bench/large/README.md) into documents for the large-corpus
// benchmark. Deterministic: the same package gives the same bytes.
//   OUT_DIR/html/<code id>/<n>.html  one HTML page per section holding articles (the section's
//                                    title path as headings, each article's texteHtml and nota)
//   OUT_DIR/text/<code id>.txt       the whole code as plain text (titles, "Article N", texte)
'use strict';
const fs = require('fs');
const path = require('path');

const [dataDir, outDir] = process.argv.slice(2);
if (!dataDir || !outDir) {
  console.error('usage: node legi_to_docs.js DATA_DIR OUT_DIR');
  process.exit(2);
}
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const codes = fs.readdirSync(dataDir).filter((f) => /^LEGITEXT\d+\.json$/.test(f)).sort();
if (codes.length === 0) {
  console.error(`legi_to_docs: no LEGITEXT*.json in ${dataDir}`);
  process.exit(1);
}
let files = 0;
for (const file of codes) {
  const code = JSON.parse(fs.readFileSync(path.join(dataDir, file), 'utf8'));
  const id = path.basename(file, '.json');
  const htmlDir = path.join(outDir, 'html', id);
  fs.mkdirSync(htmlDir, { recursive: true });
  fs.mkdirSync(path.join(outDir, 'text'), { recursive: true });
  const text = [];
  let n = 0;
  const walk = (node, titles) => {
    const articles = (node.children || []).filter((c) => c.type === 'article');
    if (node.type !== 'article' && node.data && node.data.title) text.push(node.data.title.trim(), '');
    if (articles.length > 0) {
      const head = titles.map((t, i) => `<h${Math.min(i + 1, 6)}>${esc(t.trim())}</h${Math.min(i + 1, 6)}>`);
      const body = [];
      for (const a of articles) {
        const d = a.data;
        body.push(`<div class="article" id="${esc(d.id)}">`, `<h6>Article ${esc(d.num || '')}</h6>`,
                  d.texteHtml || `<p>${esc(d.texte || '')}</p>`);
        if (d.notaHtml) body.push(`<div class="nota">${d.notaHtml}</div>`);
        body.push('</div>');
      }
      const page = ['<!DOCTYPE html>', '<html lang="fr"><head><meta charset="utf-8">',
                    `<title>${esc(titles.map((t) => t.trim()).join(' - '))}</title></head><body>`,
                    ...head, ...body, '</body></html>', ''].join('\n');
      fs.writeFileSync(path.join(htmlDir, `${String(n++).padStart(5, '0')}.html`), page);
      files++;
    }
    for (const c of node.children || []) {
      if (c.type === 'article') {
        text.push(`Article ${c.data.num || ''}`, (c.data.texte || '').trim(), '');
        if (c.data.nota) text.push(`NOTA : ${c.data.nota.trim()}`, '');
      } else {
        walk(c, [...titles, (c.data && c.data.title) || '']);
      }
    }
  };
  walk(code, [(code.data && code.data.title) || id]);
  fs.writeFileSync(path.join(outDir, 'text', `${id}.txt`), text.join('\n') + '\n');
  files++;
}
console.error(`legi_to_docs: ${codes.length} codes, ${files} files in ${outDir}`);
