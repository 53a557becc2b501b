// The key's scenario (PUT /__sandbox/scenario, seeded ids), clock (POST /__sandbox/clock/advance) and named
// snapshots (save, restore, delete: /__sandbox/snapshots).
import { call } from './api.ts'
import { facts, field, h, json, table, when } from './dom.ts'
import { act, type Shell, type View } from './view.ts'

/** A seeded id as a link where the dashboard has a view of it. */
function idValue(name: string, value: unknown): Node | string {
  if (typeof value !== 'string') return h('code', { class: 'wrap' }, JSON.stringify(value))
  if (/^01[0-9a-f]{64}$/.test(value))
    return h('a', { href: `#request/${value}` }, h('code', { class: 'wrap' }, value))
  if (/payout/i.test(name)) return h('a', { href: '#payouts' }, h('code', { class: 'wrap' }, value))
  if (/clientUserId|payer(Id)?$|paymentDetail/i.test(name) && !value.startsWith('0x'))
    return h('a', { href: '#payers' }, h('code', { class: 'wrap' }, value))
  return h('code', { class: 'wrap' }, value)
}

function seededIds(ids: unknown): HTMLElement {
  const entries = Object.entries((ids ?? {}) as Record<string, unknown>)
  if (entries.length === 0) return h('p', { class: 'muted' }, 'This scenario seeds nothing.')
  return facts(entries.map(([name, value]) => [name, idValue(name, value)]))
}

interface ScenarioList {
  selected: string
  scenarios: { name: string; description: string; pending?: string }[]
}

/** The key's scenario (switcher, seeded ids) and clock (advance). */
export function scenarioView(shell: Shell): View {
  const select = h('select', {})
  const amount = h('input', { type: 'number', min: '1', step: '1', value: '1', inputmode: 'numeric' })
  const unit = h(
    'select',
    {},
    [
      ['60', 'minutes'],
      ['3600', 'hours'],
      ['86400', 'days'],
    ].map(([v, l]) => h('option', { value: v!, selected: v === '86400' }, l!)),
  )
  const snapshotName = h('input', { type: 'text', value: 'snapshot-1', maxlength: '64', pattern: '[\\w.-]+' })
  return {
    title: 'Scenario & clock',
    controls: h(
      'div',
      { class: 'grid-2' },
      h(
        'form',
        {
          class: 'card',
          'aria-label': 'Snapshot',
          onsubmit: (e: Event) => {
            e.preventDefault()
            void act(shell, async () => {
              await call('POST', '/__sandbox/snapshots', { name: snapshotName.value })
              return `Snapshot ${snapshotName.value} saved`
            })
          },
        },
        h('h2', {}, 'Snapshots'),
        field('Snapshot name', snapshotName, 'snapshot-name'),
        h('button', { type: 'submit' }, 'Save snapshot'),
      ),
      h(
        'form',
        {
          class: 'card',
          'aria-label': 'Scenario',
          onsubmit: (e: Event) => {
            e.preventDefault()
            void act(shell, async () => {
              await call('PUT', '/__sandbox/scenario', { scenario: select.value })
              return `Scenario ${select.value} selected`
            })
          },
        },
        h('h2', {}, 'Scenario'),
        field('Scenario of this key', select, 'scenario-select'),
        h('button', { type: 'submit' }, 'Switch scenario'),
      ),
      h(
        'form',
        {
          class: 'card',
          'aria-label': 'Clock',
          onsubmit: (e: Event) => {
            e.preventDefault()
            void act(shell, async () => {
              const seconds = Number(amount.value) * Number(unit.value)
              const { now } = await call<{ now: string }>('POST', '/__sandbox/clock/advance', { seconds })
              return `Clock advanced to ${new Date(now).toLocaleString()}`
            })
          },
        },
        h('h2', {}, 'Clock'),
        h(
          'div',
          { class: 'inline' },
          field('Advance by', amount, 'clock-amount'),
          field('Unit', unit, 'clock-unit'),
        ),
        h('button', { type: 'submit' }, 'Advance clock'),
      ),
    ),
    async load() {
      const [list, state, clock, snapshots] = await Promise.all([
        call<ScenarioList>('GET', '/__sandbox/scenarios'),
        call<{ scenario: string; description: string; ids: unknown; rules: unknown }>(
          'GET',
          '/__sandbox/scenario',
        ),
        call<{ now: string; pending: { at: string; label: string }[] }>('GET', '/__sandbox/clock'),
        call<{ snapshots: { name: string; savedAt: string; scenario: string }[] }>(
          'GET',
          '/__sandbox/snapshots',
        ),
      ])
      if (select.options.length !== list.scenarios.length)
        select.replaceChildren(
          ...list.scenarios.map((s) =>
            h('option', { value: s.name }, s.pending ? `${s.name} (not available)` : s.name),
          ),
        )
      if (document.activeElement !== select) select.value = list.selected
      return h(
        'div',
        { class: 'grid-2' },
        h(
          'div',
          { class: 'card' },
          h('h3', {}, state.scenario),
          h('p', {}, state.description),
          h('h4', {}, 'Seeded ids'),
          seededIds(state.ids),
          h('details', { 'data-key': 'rules' }, h('summary', {}, 'Rules'), json(state.rules)),
        ),
        h(
          'div',
          { class: 'card' },
          h('h3', {}, 'Now: ', h('span', { id: 'clock-now' }, when(clock.now))),
          table(
            'Scheduled',
            ['When', 'What'],
            clock.pending.map((p) => [when(p.at), p.label]),
            'Nothing scheduled on this clock.',
          ),
        ),
        h(
          'div',
          { class: 'card' },
          table(
            'Snapshots',
            ['Name', 'Saved', 'Scenario', ''],
            snapshots.snapshots.map((snapshot) => [
              h('code', {}, snapshot.name),
              when(snapshot.savedAt),
              snapshot.scenario,
              h(
                'div',
                { class: 'inline' },
                h(
                  'button',
                  {
                    type: 'button',
                    'data-key': `restore-${snapshot.name}`,
                    'aria-label': `Restore snapshot ${snapshot.name}`,
                    onclick: () =>
                      act(shell, async () => {
                        await call(
                          'POST',
                          `/__sandbox/snapshots/${encodeURIComponent(snapshot.name)}/restore`,
                        )
                        return `Snapshot ${snapshot.name} restored`
                      }),
                  },
                  'Restore',
                ),
                h(
                  'button',
                  {
                    type: 'button',
                    'data-key': `delete-${snapshot.name}`,
                    'aria-label': `Delete snapshot ${snapshot.name}`,
                    onclick: () =>
                      act(shell, async () => {
                        await call('DELETE', `/__sandbox/snapshots/${encodeURIComponent(snapshot.name)}`)
                        return `Snapshot ${snapshot.name} deleted`
                      }),
                  },
                  'Delete',
                ),
              ),
            ]),
            'No snapshots: save one above.',
          ),
        ),
      )
    },
  }
}
