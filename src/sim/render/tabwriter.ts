// Go's text/tabwriter, which every one of the real tools uses to align columns: kubectl tables
// (minwidth 6, padding 3), kubectl describe (minwidth 0, padding 2), crictl (minwidth 20, padding 3).
// The alignment rules are Go's, so outputs line up exactly as the real tools' do:
// - a cell is text terminated by a tab; the last cell of a line is not part of any column;
// - a column block is a run of consecutive lines that all have a cell in that column;
// - a line without any tab flushes everything before it, so later lines align independently.
// upstream: go/src/text/tabwriter/tabwriter.go (Writer.Write, Writer.format, Writer.writeLines)

export interface TabWriterOptions {
  minwidth: number;
  tabwidth: number;
  padding: number;
  padchar: string;
}

/** kubectl get: printers.GetNewTabWriter (k8s.io/cli-runtime/pkg/printers/tabwriter.go). */
export const KUBECTL_TABLE: TabWriterOptions = { minwidth: 6, tabwidth: 4, padding: 3, padchar: ' ' };
/** kubectl describe: tabbedString (k8s.io/kubectl/pkg/describe/describe.go). */
export const KUBECTL_DESCRIBE: TabWriterOptions = { minwidth: 0, tabwidth: 8, padding: 2, padchar: ' ' };
/** crictl: newDefaultTableDisplay (cri-tools cmd/crictl/display.go). */
export const CRICTL_TABLE: TabWriterOptions = { minwidth: 20, tabwidth: 1, padding: 3, padchar: ' ' };

interface Cell {
  text: string;
  width: number;
}

const runeCount = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export class TabWriter {
  private out = '';
  private lines: Cell[][] = [[]];
  private cell = '';
  private widths: number[] = [];
  private readonly o: TabWriterOptions;

  constructor(options: TabWriterOptions) {
    this.o = options;
  }

  write(text: string): this {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== '\t' && ch !== '\n' && ch !== '\v' && ch !== '\f') continue;
      this.cell += text.slice(start, i);
      start = i + 1;
      const ncells = this.terminateCell();
      if (ch === '\n' || ch === '\f') {
        this.lines.push([]);
        // A line with a single cell cannot influence later alignment: flush (as Go does).
        if (ch === '\f' || ncells === 1) this.flushLines();
      }
    }
    this.cell += text.slice(start);
    return this;
  }

  /** Flush buffered lines and return everything written so far. */
  flush(): string {
    this.flushLines();
    return this.out;
  }

  private terminateCell(): number {
    const line = this.lines[this.lines.length - 1];
    line.push({ text: this.cell, width: runeCount(this.cell) });
    this.cell = '';
    return line.length;
  }

  private flushLines(): void {
    if (this.cell.length > 0) this.terminateCell();
    this.format(0, this.lines.length);
    this.lines = [[]];
    this.widths = [];
  }

  private format(line0: number, line1: number): void {
    const column = this.widths.length;
    for (let thisLine = line0; thisLine < line1; thisLine++) {
      if (column >= this.lines[thisLine].length - 1) continue;
      // A cell exists in this column: print the lines before the block, then size the block.
      this.writeLines(line0, thisLine);
      line0 = thisLine;
      let width = this.o.minwidth;
      for (; thisLine < line1; thisLine++) {
        const line = this.lines[thisLine];
        if (column >= line.length - 1) break;
        width = Math.max(width, line[column].width + this.o.padding);
      }
      this.widths.push(width);
      this.format(line0, thisLine);
      this.widths.pop();
      line0 = thisLine;
    }
    this.writeLines(line0, line1);
  }

  private writeLines(line0: number, line1: number): void {
    for (let i = line0; i < line1; i++) {
      const line = this.lines[i];
      line.forEach((c, j) => {
        this.out += c.text;
        if (j < this.widths.length) this.out += this.o.padchar.repeat(Math.max(0, this.widths[j] - c.width));
      });
      // The last buffered line has no newline yet (its text is still being written).
      if (i + 1 < this.lines.length) this.out += '\n';
    }
  }
}

/** Align rows of cells as kubectl/crictl do (each row joined by tabs, one line per row). */
export function tabulate(rows: string[][], options: TabWriterOptions): string {
  const w = new TabWriter(options);
  for (const row of rows) w.write(`${row.join('\t')}\n`);
  return w.flush();
}
