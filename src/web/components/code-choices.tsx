// A fieldset of checkboxes, one per named choice (a scope, a webhook event):
// the name as code, its meaning beside it. The chosen list stays in the order
// the user ticked them.
import type { Dispatch, SetStateAction } from 'react';

export function CodeChoices<T extends string>({
  legend,
  options,
  chosen,
  setChosen,
}: {
  legend: string;
  options: ReadonlyArray<readonly [T, string]>;
  chosen: readonly T[];
  setChosen: Dispatch<SetStateAction<T[]>>;
}) {
  const toggle = (v: T, on: boolean) =>
    setChosen((old) => (on ? [...old.filter((x) => x !== v), v] : old.filter((x) => x !== v)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map(([v, text]) => (
        <label key={v} className="inline">
          <input type="checkbox" checked={chosen.includes(v)} onChange={(e) => toggle(v, e.target.checked)} value={v} />
          <span>
            <code>{v}</code> <span className="muted">{text}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
