// What the open configuration can be compared with, for Compare's chooser: its published version, the other
// configurations, and the versions of its history, each with the settings the preview would show for it. Kept
// apart from ./compare, whose code loads with the comparison: this list is asked for from the app's first chunk.
import type { Draft } from '../editor/draft.svelte';
import { effectiveConfig } from '../preview/effective';
import type { Studio } from '../studio.svelte';
import type { CompareSource } from './compare';

export async function compareSources(s: Studio, d: Draft): Promise<CompareSource[]> {
  const template = s.template?.config;
  if (!template) return [];
  const fieldsOf = (space: string) => s.spaces.find((sp) => sp.id === space)?.fields ?? [];
  const source = (id: string, label: string, configId: number | null, config: unknown): CompareSource => {
    const effective = effectiveConfig(config, template);
    return { id, label, configId, config: effective, fields: fieldsOf(effective.searchSpace) };
  };
  const list: CompareSource[] = [];
  if (d.id !== null && d.savedJson) list.push(source('published', 'The published version', d.id, JSON.parse(d.savedJson).config));
  for (const c of s.configurations) {
    if (c.id !== d.id && c.id !== null) list.push(source(`config-${c.id}`, `Configuration “${c.config.title || c.id}”`, c.id, c.config));
  }
  const history = d.id === null ? [] : await s.history(d.id).catch(() => []);
  history.forEach((h, i) => {
    const when = new Date(h.at).toLocaleString();
    list.push(source(`history-${i}`, `Version of ${when} (${h.action} by ${h.user})`, d.id, h.config.config));
  });
  return list;
}
