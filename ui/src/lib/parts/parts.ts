// The parts of the UI loaded when first shown (part.svelte.ts), each in a chunk of its own.
import { part } from './part.svelte';

export const parts = {
  tokenDialog: part('sign-in dialog', () => import('../components/TokenDialog.svelte')),
  signInDialog: part('sign-in dialog', () => import('../components/SignInDialog.svelte')),
  settingsDialog: part('Settings dialog', () => import('../components/SettingsDialog.svelte')),
  conflictView: part('conflict dialog', () => import('../components/ConflictView.svelte')),
  copyDialog: part('“Copy to…” dialog', () => import('../components/CopyDialog.svelte')),
  recoveryScreen: part('recovery screen', () => import('../components/RecoveryScreen.svelte')),
  folderBar: part('folder bar', () => import('../components/FolderBar.svelte')),
  folderPlanDialog: part('folder plan', () => import('../components/FolderPlanDialog.svelte')),
  findingsPanel: part('accessibility panel', () => import('../designer/FindingsPanel.svelte')),
  compareView: part('Compare view', () => import('../designer/CompareView.svelte')),
  partsList: part('Inspect list', () => import('../designer/PartsList.svelte')),
  detailView: part('document view', () => import('../preview/DetailView.svelte')),
};
