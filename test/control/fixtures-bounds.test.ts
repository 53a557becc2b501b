// A world file is a stranger's input on a shared demo: every size and count its templates generate is bounded before
// generation, its nesting like a body's (JSON and YAML alike), its templates share a budget, and a key loads one at a
// time. Each hostile file answers 400 naming the path inside the file, at once, and the sandbox (a child process:
// a file that kills it fails here, not the runner) still answers another key's call at once.

import { faker } from '@faker-js/faker'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allowedFakerCalls } from '../../src/control/fixtures/faker-calls.ts'
import { TemplateBudget } from '../../src/control/fixtures/templates.ts'
import { yamlTooDeep } from '../../src/control/fixtures/yaml-depth.ts'
import { api, type CliSandbox, freshKey, startCliSandbox } from '../support/cli-sandbox.ts'

let sandbox: CliSandbox
beforeAll(async () => {
  sandbox = await startCliSandbox(['--no-chain'])
}, 60_000)
afterAll(async () => {
  await sandbox?.stop()
})

/** Posts a world file's text as one key; answers status, body and how long it took. */
async function upload(text: string, key = freshKey('hostile'), type = 'application/json') {
  const started = Date.now()
  const response = await fetch(`${sandbox.url}/__sandbox/fixtures`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': type },
    body: text,
  })
  const raw = await response.text()
  let body: { statusCode?: number; message?: string; error?: string; created?: Record<string, unknown> } = {}
  try {
    body = JSON.parse(raw)
  } catch {}
  return { status: response.status, body, ms: Date.now() - started }
}

/** Another key's call, timed: the sandbox is still up and its event loop free. */
async function anotherKeyAnswers() {
  const started = Date.now()
  const other = await api(sandbox.url, freshKey('bystander'), 'GET', '/v2/client-ids')
  return { status: other.status, ms: Date.now() - started }
}

const payerWith = (firstName: string) => JSON.stringify({ payers: { p: { body: { firstName } } } })

describe('world file bounds', () => {
  it.each([
    ['a length inside a finance helper', '{{faker.finance.accountNumber(20000000)}}'],
    ['a {min,max} length', '{{faker.string.alpha({"length":{"min":1,"max":100000000}})}}'],
    ['a {min,max} count', '{{faker.lorem.words({"min":200000,"max":200000})}}'],
    ['a template inside helpers.fake', '{{faker.helpers.fake("{{string.alpha(200000)}}")}}'],
    ['a count inside helpers.fromRegExp', '{{faker.helpers.fromRegExp("[a-z]{200000}")}}'],
    ['a method outside the list', '{{faker.helpers.multiple}}'],
    ['two templates past the string bound', 'x{{faker.string.alpha(10000)}}-{{faker.string.alpha(10000)}}'],
  ])('refuses %s before generating it: 400 naming the path, at once', async (_label, template) => {
    const refused = await upload(payerWith(template))
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request' })
    expect(refused.body.message).toMatch(/^payers\.p\.body\.firstName: /)
    expect(refused.ms).toBeLessThan(1_500)
    const other = await anotherKeyAnswers()
    expect(other.status).toBe(200)
    expect(other.ms).toBeLessThan(3_000)
  })

  it("refuses a file whose templates together generate past the upload's budget, naming where it went past", async () => {
    // 120 payers of 9,000 generated characters each: every template is within its bound, the file is not
    const payers = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `p${i}`,
        { body: { lastName: '{{faker.string.alpha(9000)}}' } },
      ]),
    )
    const refused = await upload(JSON.stringify({ payers }))
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body.message).toMatch(/^payers\.p111\.body\.lastName: .*1000000 characters/)
    expect(refused.ms).toBeLessThan(5_000)
    expect((await anotherKeyAnswers()).ms).toBeLessThan(3_000)
  })

  it('lists only methods faker has', () => {
    const modules = faker as unknown as Record<string, Record<string, unknown>>
    const missing = allowedFakerCalls().filter((call) => {
      const [module, method] = call.split('.')
      return typeof modules[module!]?.[method!] !== 'function'
    })
    expect(missing).toEqual([])
    expect(allowedFakerCalls()).not.toContain('helpers.fake')
    expect(allowedFakerCalls()).not.toContain('helpers.fromRegExp')
  })

  it('keeps a running budget of templates, characters and time, checked after each value', () => {
    const budget = new TemplateBudget({ maxTemplates: 3, maxCharacters: 10, maxMs: 50 })
    budget.spend('a.b', 'xyz', 1)
    expect(() => budget.spend('a.c', 'x'.repeat(8), 1)).toThrow(/^a\.c: .*10 characters/)
    const slow = new TemplateBudget({ maxTemplates: 3, maxCharacters: 10, maxMs: 50 })
    slow.spend('a.b', 1, 30)
    expect(() => slow.spend('a.d', 2, 30)).toThrow(/^a\.d: .*50 ms/)
    const many = new TemplateBudget({ maxTemplates: 2, maxCharacters: 10, maxMs: 50 })
    many.spend('x', 1, 0)
    many.spend('x', 1, 0)
    expect(() => many.spend('y.z', 1, 0)).toThrow(/^y\.z: .*2 templates/)
    // a reference to an object created before counts as what it is written as
    const refs = new TemplateBudget({ maxTemplates: 5, maxCharacters: 20, maxMs: 50 })
    expect(() => refs.spend('r.s', { a: 'x'.repeat(30) }, 0)).toThrow(/^r\.s: .*20 characters/)
  })

  it('refuses a file nested 5,000 levels (JSON, YAML flow, YAML sequences) with 400 naming the path, at once', async () => {
    const jsonDeep = `{"payers":{"p":{"body":{"firstName":"A","extra":${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}}}}}`
    const flow = `payers:\n  p:\n    body:\n      extra: ${'['.repeat(5000)}${']'.repeat(5000)}\n`
    const seq = `payers:\n  p:\n    body:\n      extra:\n        ${'- '.repeat(5000)}x\n`
    for (const [text, type, step] of [
      [jsonDeep, 'application/json', 'a'],
      [flow, 'application/yaml', '0'],
      [seq, 'application/yaml', '0'],
    ] as const) {
      const refused = await upload(text, freshKey('deep'), type)
      expect(refused.status, JSON.stringify(refused.body)).toBe(400)
      // the path down to the first container past 64 levels (the file's own object is level 1)
      const path = ['payers', 'p', 'body', 'extra', ...Array(60).fill(step)].join('.')
      expect(refused.body.message).toBe(
        `${path}: nested deeper than 64 levels: a world file's objects and arrays may nest 64 levels at most`,
      )
      expect(refused.ms).toBeLessThan(1_500)
      expect((await anotherKeyAnswers()).ms).toBeLessThan(3_000)
    }
  })

  it('reads the nesting of YAML as the parsed document has it (block maps, sequences, flow, quoted keys)', async () => {
    const { parse } = await import('yaml')
    const { bodyIssue } = await import('../../src/contract/body-limits.ts')
    let block = 'payers:\n  p:\n    body:\n'
    for (let i = 0; i < 70; i++) block += `${' '.repeat(6 + 2 * i)}"k${i}":\n`
    block += `${' '.repeat(6 + 140)}x\n`
    const mixed = `a:\n- b: 1\n  c:\n    - [1, {d: [${'['.repeat(62)}${']'.repeat(62)}]}]\ne: 2\n`
    const shallow = `a:\n- b: 1\n  c:\n    - [1, {d: [${'['.repeat(40)}${']'.repeat(40)}]}]\ne: 2\n`
    for (const text of [block, mixed, shallow]) {
      const issue = bodyIssue(parse(text))
      expect(yamlTooDeep(text, 64)).toBe(issue && 'tooDeep' in issue ? issue.tooDeep : null)
    }
    expect(yamlTooDeep(shallow, 64)).toBeNull()
    const refused = await upload(block, freshKey('deep'), 'application/yaml')
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/^payers\.p\.body\.k0\.k1\..*\.k60: nested deeper than 64 levels/)
  })

  it('parses YAML off the event loop with a deadline: another key answers at once while a slow file parses', async () => {
    // long flow sequences within every bound: slow for the yaml parser (seconds on a busy machine)
    const slow = `payers:\n  p:\n    body:\n      tags: [${Array.from({ length: 250 }, () => `[${'1,'.repeat(499)}1]`).join(',')}]\n`
    expect(slow.length).toBeLessThan(256 * 1024)
    const pending = upload(slow, freshKey('slow'), 'application/yaml').then((answer) => ({
      ...answer,
      doneAt: Date.now(),
    }))
    await new Promise((r) => setTimeout(r, 200))
    const other = await anotherKeyAnswers()
    const otherDoneAt = Date.now()
    const answered = await pending
    expect(other.status).toBe(200)
    // answered while the file was still parsing (parsed inline, the file held every key's call until it was done)
    expect(otherDoneAt).toBeLessThan(answered.doneAt)
    // parsed in time (the tags are not a payer's field: 201 or 400 naming them), or past the deadline: 400
    expect([201, 400]).toContain(answered.status)
    expect(answered.ms).toBeLessThan(10_000)
    // past 256 KB a YAML file is refused unread
    const big = await upload(`${slow}${'# padding\n'.repeat(2_000)}`, freshKey('big'), 'application/yaml')
    expect(big.status).toBe(413)
    expect(big.body.message).toContain('262144 bytes')
  }, 30_000)

  it('refuses a file past the entries one upload may create, naming the entry', async () => {
    const payers = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`p${i}`, {}]))
    const refused = await upload(JSON.stringify({ payers }))
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/^payers\.p500: a world file creates at most 500 entries/)
    const paid = Object.fromEntries(
      Array.from({ length: 51 }, (_, i) => [
        `r${i}`,
        { body: { amount: '1', invoiceCurrency: 'FAU-sepolia', paymentCurrency: 'FAU-sepolia' }, paid: true },
      ]),
    )
    const chain = await upload(JSON.stringify({ requests: paid }))
    expect(chain.status).toBe(400)
    expect(chain.body.message).toMatch(/^requests\.r50: a world file pays at most 50 entries on the chain/)
  })

  it('loads a key one world file at a time: a second upload while the first runs answers 429, another key is not held', async () => {
    const key = freshKey('serial')
    const payers = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`p${i}`, { body: { lastName: '{{faker.person.lastName}}' } }]),
    )
    const text = JSON.stringify({ payers })
    const first = upload(text, key)
    await new Promise((r) => setTimeout(r, 30))
    const [second, other] = await Promise.all([upload(text, key), upload(payerWith('Zed'))])
    expect(second.status).toBe(429)
    expect(second.body.message).toContain('one world file at a time')
    expect(other.status).toBe(201)
    expect((await first).status).toBe(201)
    // once the first has answered, the key loads again
    expect((await upload(payerWith('Again'), key)).status).toBe(201)
  }, 30_000)

  it('still loads a legitimate file: listed faker methods with arguments within bounds, references, YAML', async () => {
    const key = freshKey('legit')
    const text = `payers:
  ann:
    body:
      clientUserId: "{{faker.string.alphanumeric(12)}}@example.com"
      email: ann@example.com
      firstName: "{{faker.person.firstName(\\"female\\")}}"
      lastName: "{{faker.person.lastName}}"
      addressLine1: "{{faker.location.streetAddress}}"
      city: "{{faker.location.city}}"
      postcode: "{{faker.location.zipCode(\\"#####\\")}}"
clientIds:
  shop:
    body:
      label: "Shop {{faker.company.name}} {{faker.string.numeric({\\"length\\":{\\"min\\":3,\\"max\\":5}})}} {{faker.finance.accountNumber(20)}}"
      allowedDomains: ["https://{{faker.internet.domainName}}"]
`
    const loaded = await upload(text, key, 'application/yaml')
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201)
    const clientIds = await api(sandbox.url, key, 'GET', '/v2/client-ids')
    const label = String((clientIds.body as { label: string }[])[0]?.label)
    expect(label).toMatch(/^Shop .+ \d{3,5} \d{20}$/)
  })
})
