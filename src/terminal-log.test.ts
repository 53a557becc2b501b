// The terminal log's output on a real file descriptor: a pipe whose reader does not keep up (nobody reads it) holds
// at most its bound while the server goes on, and once the reader catches up one line says how many lines were
// dropped; a file gets every line, written asynchronously (a call never waits for it).
import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { until } from './contract/wait.ts'
import { fdOutput } from './terminal-log.ts'

const turn = () => new Promise((r) => setImmediate(r))
const line = (i: number) =>
  `12:00:00.000 GET    /v2/request/${i} 200 1 ms  key k scenario default ${'x'.repeat(100)}`

const dirs: string[] = []
const fds: number[] = []
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd)
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'terminal-log-'))
  dirs.push(dir)
  return dir
}

describe('terminal log output', () => {
  it('keeps at most its bound for a pipe nobody reads, then says how many lines it dropped', async () => {
    const fifo = join(tempDir(), 'log.fifo')
    execFileSync('mkfifo', [fifo])
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)
    fds.push(reader, writer)
    const log = fdOutput(writer, 'text', 64 * 1024)
    // 20,000 lines of about 170 bytes (3.4 MB) in 200 turns of the event loop; the pipe takes 64 KiB
    for (let t = 0; t < 200; t++) {
      for (let i = 0; i < 100; i++) log.write(line(t * 100 + i))
      await turn()
    }
    // the reader catches up: everything the pipe and the log's queue hold comes out
    const chunks: string[] = []
    const buffer = Buffer.alloc(1 << 16)
    const drain = () => {
      for (;;) {
        try {
          const n = readSync(reader, buffer, 0, buffer.length, null)
          if (n <= 0) return
          chunks.push(buffer.toString('utf8', 0, n))
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return
          throw error
        }
      }
    }
    const held = () => {
      drain()
      return chunks.join('').split('\n').filter(Boolean).length
    }
    // at most the pipe (64 KiB) plus the bound (64 KiB) of ~170-byte lines were kept
    await until(
      async () => {
        const before = held()
        await new Promise((r) => setTimeout(r, 250))
        return held() === before
      },
      (still) => still,
    )
    expect(held()).toBeLessThan((128 * 1024) / 150)
    log.write(line(99_999))
    await until(
      () => {
        drain()
        return chunks.join('')
      },
      (text) => text.endsWith(`${line(99_999)}\n`),
    )
    const text = chunks.join('')
    const kept = text.split('\n').filter((l) => l.includes('/v2/request/')).length
    const notes = [...text.matchAll(/\((\d+) log lines dropped: the output did not keep up\)/g)]
    expect(notes.length).toBeGreaterThan(0)
    expect(kept + notes.reduce((n, note) => n + Number(note[1]), 0)).toBe(20_001)
  })

  it('writes every line to a file, none of them during the call that logged it', async () => {
    const path = join(tempDir(), 'log.txt')
    const fd = openSync(path, 'w')
    fds.push(fd)
    const log = fdOutput(fd, 'json', 4 * 1024 * 1024)
    for (let t = 0; t < 50; t++) {
      for (let i = 0; i < 100; i++) log.write(line(t * 100 + i))
      expect(readFileSync(path, 'utf8')).not.toContain(line(t * 100))
      await turn()
    }
    await log.flush()
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
    expect(lines).toHaveLength(5000)
    expect(lines.some((l) => l.includes('dropped'))).toBe(false)
  })
})
