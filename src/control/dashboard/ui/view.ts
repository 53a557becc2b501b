// What every view of the dashboard is, and how views act: through the control API, then a message and a reload.
/** What a view is: its controls (built once, kept across live refreshes) and its data (reloaded). */
export interface View {
  title: string
  controls?: HTMLElement
  load(): Promise<Node>
}

/** How views talk back to the shell: show a message, reload the data. */
export interface Shell {
  notify(message: string, kind?: 'ok' | 'error'): void
  reload(): void
}

/** Runs an action of the page (a control API call), shows its outcome, and reloads the data shown. */
export async function act(shell: Shell, run: () => Promise<string>): Promise<void> {
  try {
    shell.notify(await run(), 'ok')
  } catch (error) {
    shell.notify((error as Error).message, 'error')
  }
  shell.reload()
}
