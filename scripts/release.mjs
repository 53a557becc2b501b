// `npm run release`: publishes request-sandbox to the npm registry, with provenance, when a maintainer chooses to.
// It refuses a tree with uncommitted changes, runs the whole suite (`npm test`), builds dist/ and packs what would be
// published. Without --publish that is all: `npm publish --dry-run` shows the files and the version, and nothing
// leaves the machine. With --publish it runs `npm publish --provenance --access public` (provenance needs a CI
// runner with an OIDC identity, such as GitHub Actions with `id-token: write`; npm refuses it elsewhere).
//
//   npm run release                        check, test, build, dry run
//   npm run release -- --publish           the same, then publish
//   npm run release -- --skip-tests        a dry run without the suite (how the suite tests this script; refused
//                                          with --publish)
import { execFileSync, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const known = new Set(['--publish', '--skip-tests'])
const unknown = args.filter((a) => !known.has(a))
if (unknown.length) fail(`unknown option ${unknown.join(' ')} (options: ${[...known].join(', ')})`)
const publish = args.includes('--publish')
const skipTests = args.includes('--skip-tests')
if (publish && skipTests)
  fail('--publish runs the whole suite first: it cannot be combined with --skip-tests')

function fail(message) {
  console.error(`release: ${message}`)
  process.exit(1)
}

/** Runs a command in the repository, its output shown; a non-zero exit stops the release. */
function step(title, command, commandArgs) {
  console.log(`release: ${title}: ${command} ${commandArgs.join(' ')}`)
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0)
    fail(`${title} failed (${command} ${commandArgs.join(' ')} exited ${result.status ?? result.signal})`)
}

const changes = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim()
if (changes) fail(`the tree has uncommitted changes; commit or remove them first:\n${changes}`)
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
console.log(`release: the tree is clean at ${commit}`)

if (skipTests) console.log('release: the suite is skipped (--skip-tests)')
else step('the suite', 'npm', ['test'])
step('the build', 'node', ['scripts/build.mjs'])
// dist/ is built above: publishing does not run prepack again
if (publish) step('publishing', 'npm', ['publish', '--provenance', '--access', 'public', '--ignore-scripts'])
else {
  step('dry run', 'npm', ['publish', '--dry-run', '--access', 'public', '--ignore-scripts'])
  console.log('release: dry run only; nothing was published (npm run release -- --publish publishes)')
}
