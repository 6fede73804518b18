// What the edited configuration can be compared with, side by side: its published version, another
// configuration, or a version from its history; and the settings in which two versions differ.
import type { Config, FacetField } from '../types/generated';
import { diffFields } from '../editor/conflict';

export interface CompareSource {
  /** Stable within one list: `published`, `config-4`, `history-2`. */
  id: string;
  /** What the designer reads in the chooser and above the preview. */
  label: string;
  /** The configuration searched for this side (its stored settings are replaced by `config` in the search). */
  configId: number | null;
  config: Config;
  fields: FacetField[];
}

export interface Difference {
  /** The setting's key as the editor's fields are keyed (`config.layout.navbar.backgroundColor`). */
  key: string;
  /** Its value on the other side and on the edited one, as short text. */
  theirs: string;
  mine: string;
}

const shown = (v: unknown): string => {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return `${v.length} item${v.length === 1 ? '' : 's'}`;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 40 ? text.slice(0, 39) + '…' : text || '“”';
};

/** The settings in which `mine` differs from `theirs`, by key. A list setting (facets, details) is one setting. */
export function differences(theirs: Config, mine: Config): Difference[] {
  return diffFields({ config: theirs }, { config: mine }).map((d) => ({ key: d.path, theirs: shown(d.before), mine: shown(d.after) }));
}
