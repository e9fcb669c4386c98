// A character grid with a style per cell, turned into styled lines. The
// board is drawn into one of these.
import { span, type Line, type Style } from './style';

interface Cell {
  ch: string;
  style: Style;
}

export class Grid {
  private readonly cells: Cell[][];

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.cells = Array.from({ length: height }, () => Array.from({ length: width }, () => ({ ch: ' ', style: {} })));
  }

  /** Writes text starting at (col, row); characters outside the grid are dropped. */
  put(col: number, row: number, text: string, style: Style = {}): void {
    if (row < 0 || row >= this.height) return;
    [...text].forEach((ch, i) => {
      const c = col + i;
      if (c >= 0 && c < this.width) this.cells[row][c] = { ch, style };
    });
  }

  /** True when every cell in the range is blank. */
  isBlank(col: number, row: number, length: number): boolean {
    if (row < 0 || row >= this.height || col < 0 || col + length > this.width) return false;
    for (let c = col; c < col + length; c++) if (this.cells[row][c].ch !== ' ') return false;
    return true;
  }

  toLines(): Line[] {
    return this.cells.map((row) => {
      const line: Line = [];
      for (const cell of row) {
        const last = line[line.length - 1];
        if (last && sameStyle(last, cell.style)) last.text += cell.ch;
        else line.push(span(cell.ch, cell.style));
      }
      return line;
    });
  }
}

function sameStyle(a: Style, b: Style): boolean {
  return a.color === b.color && !!a.bold === !!b.bold && !!a.dim === !!b.dim && !!a.inverse === !!b.inverse;
}
