import type { ReactNode } from 'react';

interface DataTableProps {
  /** The column headers, left to right; `false` leaves out a column this viewer does not get. */
  columns: readonly (string | false)[];
  /** What the table holds, for screen readers only unless `showCaption`. */
  caption?: string;
  showCaption?: boolean;
  labelledBy?: string;
  /** A short table at its own width, never wider than the card. */
  narrow?: boolean;
  /** Without the wrapper that scrolls a wide table sideways. */
  unwrapped?: boolean;
  /** The body's rows. */
  children: ReactNode;
}

/** The back office's table of records: a header row of columns, then the caller's rows. */
export function DataTable({ columns, caption, showCaption, labelledBy, narrow, unwrapped, children }: DataTableProps) {
  const table = (
    <table className={narrow ? 'bo-table bo-table--narrow' : 'bo-table'} aria-labelledby={labelledBy}>
      {caption && <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>}
      <thead>
        <tr>
          {columns.map(
            (column) =>
              column && (
                <th key={column} scope="col">
                  {column}
                </th>
              ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  if (narrow || unwrapped) return table;
  // A wide table scrolls sideways inside its wrapper: reachable and scrollable from the keyboard too.
  return (
    <div className="bo-table-wrap" tabIndex={0}>
      {table}
    </div>
  );
}
