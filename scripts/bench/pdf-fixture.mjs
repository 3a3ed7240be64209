// A valid multi-page PDF written by hand (no dependency): catalog, page tree, one standard font,
// and per page a page object followed by its uncompressed content stream, then a classic xref
// table. Used by the G8 benchmark (200 pages, ≥ 40 MB) and by the preview e2e spec.
//
// The page tree is either flat (every page a kid of the root, as LibreOffice and ReportLab write
// it) or balanced (intermediate /Pages nodes of at most `fanout` kids with their /Count, as
// Chrome's Skia backend, Ghostscript and pdfTeX write it).

/**
 * @param {{ pages: number, padBytesPerPage?: number, tree?: "flat" | "balanced", fanout?: number, text?: string }} options
 *   text: one more line on every page (ASCII, no parentheses or backslashes), for the search tests.
 *   padBytesPerPage: drawing operations added to each page's content stream (tiny squares in one
 *   path), to make the file large the way scanned or vector-heavy PDFs are.
 * @returns {Buffer}
 */
export function makePdf({ pages, padBytesPerPage = 0, tree = "flat", fanout = 8, text = "" }) {
  const chunks = [];
  const offsets = [];
  let length = 0;
  const push = (text) => {
    const buffer = Buffer.from(text, "latin1");
    chunks.push(buffer);
    length += buffer.length;
  };
  const object = (number, body) => {
    offsets[number] = length;
    push(`${number} 0 obj\n${body}\nendobj\n`);
  };

  // Object numbers: 1 catalog, 2 root of the page tree, 3 font, then intermediate nodes, then
  // a page and its content stream for each page.
  let next = 4;
  /** Each node: { number, kids: number[], count, parent }. Leaves are pages. */
  const pageNumbers = [];
  let level = [];
  for (let index = 0; index < pages; index++) level.push({ page: index, count: 1 });
  const intermediate = [];
  if (tree === "balanced") {
    while (level.length > fanout) {
      const parents = [];
      for (let start = 0; start < level.length; start += fanout) {
        const kids = level.slice(start, start + fanout);
        const node = { number: next++, kids, count: kids.reduce((sum, kid) => sum + kid.count, 0) };
        for (const kid of kids) kid.parent = node;
        parents.push(node);
        intermediate.push(node);
      }
      level = parents;
    }
  }
  const root = { number: 2, kids: level, count: pages };
  for (const kid of level) kid.parent = root;
  for (let index = 0; index < pages; index++) pageNumbers.push(next + index * 2);
  const leaves = [];
  const collect = (node) => {
    if (node.page !== undefined) leaves[node.page] = node;
    else node.kids.forEach(collect);
  };
  collect(root);
  const refOf = (node) => (node.page !== undefined ? pageNumbers[node.page] : node.number);

  push("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, `<< /Type /Pages /Kids [${root.kids.map((kid) => `${refOf(kid)} 0 R`).join(" ")}] /Count ${pages} >>`);
  object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (const node of intermediate) {
    object(node.number, `<< /Type /Pages /Parent ${node.parent.number} 0 R /Kids [${node.kids.map((kid) => `${refOf(kid)} 0 R`).join(" ")}] /Count ${node.count} >>`);
  }

  for (let index = 0; index < pages; index++) {
    let content = `BT /F1 48 Tf 72 700 Td (Page ${index + 1}) Tj ET\nBT /F1 14 Tf 72 660 Td (Strongroom preview test document) Tj ET\n`;
    if (text) content += `BT /F1 12 Tf 72 630 Td (${text}) Tj ET\n`;
    if (padBytesPerPage > 0) {
      const squares = [];
      let size = 0;
      for (let n = 0; size < padBytesPerPage; n++) {
        const square = `${72 + (n % 200) * 2.3} ${100 + (Math.floor(n / 200) % 240) * 2.2} 1 1 re\n`;
        squares.push(square);
        size += square.length;
      }
      content += `0.85 g\n${squares.join("")}f\n`;
    }
    const number = pageNumbers[index];
    object(
      number,
      `<< /Type /Page /Parent ${leaves[index].parent.number} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${number + 1} 0 R >>`,
    );
    object(number + 1, `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}endstream`);
  }

  const count = next + pages * 2;
  const xrefOffset = length;
  const entries = ["0000000000 65535 f \n"];
  for (let number = 1; number < count; number++) entries.push(`${String(offsets[number]).padStart(10, "0")} 00000 n \n`);
  push(`xref\n0 ${count}\n${entries.join("")}trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
