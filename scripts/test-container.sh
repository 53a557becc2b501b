#!/usr/bin/env bash
# npm run test:container: builds the image from the Dockerfile and checks it in a container, with podman or docker
# (whichever answers; ENGINE=podman|docker picks one). Without a container engine it says so and exits 0. Not part
# of `npm test`: a build takes about 1.5 minutes on two cores.
#
# Checks (each prints PASS or FAIL; the last line is a SUMMARY; exit 1 when one failed):
#   the build (time, image size, no VOLUME), the entrypoint (IMAGE --version and IMAGE --webhook-hosts h reach the
#   sandbox), start to GET /__sandbox/health 200, the HEALTHCHECK command, PID 1 as uid 1000, anvil inside, /llms.txt
#   and a guide served (docs/ in the image), a request
#   paid through /rpc and seen paid, SIGTERM (stop time, exit 0) and SIGKILL with the state on a named volume, no
#   anonymous volume per run, a root-owned host folder on /data named as not writable by uid 1000, and compose.yaml
#   (through podman-compose, podman compose or docker compose; without one, its equivalent `run`, said so).
#
# Environment: ENGINE, IMAGE (request-sandbox:test), PORT (host port, default a free one from 18480),
#   KEEP_IMAGE=1 (default: the image is kept, the containers and volumes this run made are removed),
#   BUILD_CA (podman: a CA file npm in the build must trust, behind a TLS-intercepting proxy; default
#   $NODE_EXTRA_CA_CERTS), CONTAINERS_CONF (podman's own: runtime and rlimits of an unusual host).
set -uo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-request-sandbox:test}
BUILD_CA=${BUILD_CA-${NODE_EXTRA_CA_CERTS:-}}
TAG=rst$$
PASSES=0 FAILS=0 FAILED=() CONTAINERS=() VOLUMES=() WORKDIR=$(mktemp -d)
T_BUILD=- SIZE=- T_HEALTHY=-
T_START=$EPOCHREALTIME

since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
pass() { PASSES=$((PASSES + 1)); printf 'PASS  %s\n' "$*"; }
fail() { FAILS=$((FAILS + 1)); FAILED+=("${1%% (*}"); printf 'FAIL  %s\n' "$*"; }
info() { printf 'INFO  %s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

if [ -z "${ENGINE:-}" ]; then
  for e in podman docker; do
    command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1 && { ENGINE=$e; break; }
  done
fi
if [ -z "${ENGINE:-}" ]; then
  echo 'test:container: SKIPPED: no container engine answers here (podman info and docker info both failed or are missing); install podman or docker to run it'
  rmdir "$WORKDIR"
  exit 0
fi
E=$ENGINE

cleanup() {
  local c v
  for c in "${CONTAINERS[@]}"; do $E rm -f -v "$c" >/dev/null 2>&1; done
  for v in "${VOLUMES[@]}"; do $E volume rm -f "$v" >/dev/null 2>&1; done
  [ -n "${COMPOSE:-}" ] && (cd "$WORKDIR/compose" 2>/dev/null && $COMPOSE -p "$TAG" down -v >/dev/null 2>&1)
  rm -rf "$WORKDIR"
}
summary() {
  cleanup
  local verdict=PASS failed=''
  { [ "$FAILS" -eq 0 ] && [ "$PASSES" -gt 0 ]; } || verdict=FAIL
  [ "${#FAILED[@]}" -gt 0 ] && failed=" ($(printf '%s; ' "${FAILED[@]}" | sed 's/; $//'))"
  printf '\nSUMMARY %s: %d passed, %d failed%s; %s, build %ss, image %s, start to healthy %ss; %ss in all\n' \
    "$verdict" "$PASSES" "$FAILS" "$failed" "$E" "$T_BUILD" "$SIZE" "$T_HEALTHY" "$(since "$T_START")"
  [ "$verdict" = PASS ]
}
trap 'summary; exit $?' EXIT
trap 'FAILED+=(interrupted); FAILS=$((FAILS + 1)); exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while ! port_free "$p"; do p=$((p + 1)); done; echo "$p"; }
PORT=${PORT:-$(free_port 18480)}
URL=http://127.0.0.1:$PORT

# run NAME [options...] [-- sandbox arguments...]: detached, published on PORT
run() {
  local name=$1; shift
  local opts=() args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
  [ "${1:-}" = -- ] && { shift; args=("$@"); }
  CONTAINERS+=("$name")
  $E run -d --name "$name" -p "$PORT:8080" "${opts[@]}" "$IMAGE" "${args[@]}" >/dev/null 2>"$WORKDIR/$name.err"
}
# healthy NAME: seconds until GET /__sandbox/health answers 200 (60 s at most), or a reason on failure
healthy() {
  local t0=$EPOCHREALTIME
  while :; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$URL/__sandbox/health")" = 200 ] && { since "$t0"; return 0; }
    [ "$($E inspect --format '{{.State.Running}}' "$1" 2>/dev/null)" = true ] || { echo "exited: $($E logs "$1" 2>&1 | tail -n 3 | tr '\n' ' ')"; return 1; }
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a > 60) }' && { echo timeout; return 1; }
    sleep 0.1
  done
}
# api METHOD PATH KEY [BODY]: "<status> <body>"
api() {
  local out
  out=$(curl -s --max-time 20 -X "$1" "$URL$2" ${3:+-H "x-api-key: $3"} -H 'content-type: application/json' ${4:+--data "$4"} -w '\n%{http_code}')
  printf '%s %s\n' "${out##*$'\n'}" "${out%$'\n'*}"
}
rpc() { curl -s --max-time 20 "$URL/rpc" -H 'content-type: application/json' -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}"; }
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=new Function("r","return "+process.argv[1])(JSON.parse(s));console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }
# stop NAME SIGNAL: "<seconds> <exit code>"
stop() {
  local t0=$EPOCHREALTIME
  if [ "$2" = KILL ]; then $E kill -s KILL "$1" >/dev/null 2>&1; $E wait "$1" >/dev/null 2>&1; else $E stop -t 10 "$1" >/dev/null 2>&1; fi
  echo "$(since "$t0") $($E inspect --format '{{.State.ExitCode}}' "$1")"
}
REQUEST='{"amount":"10","invoiceCurrency":"FAU-sepolia","paymentCurrency":"FAU-sepolia","payee":"0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7"}'

# ---------------------------------------------------------------------------------------------------------------
step "1. build $IMAGE with $E ($($E --version))"
build=(build -t "$IMAGE")
[ "$E" = podman ] && build+=(--format docker) # the docker format keeps HEALTHCHECK
if [ "$E" = podman ] && [ -n "$BUILD_CA" ] && [ -r "$BUILD_CA" ]; then
  mkdir -p "$WORKDIR/ca" && cp "$BUILD_CA" "$WORKDIR/ca/ca.crt" && echo 'cafile=/usr/local/etc/ca.crt' >"$WORKDIR/ca/npmrc"
  build+=(-v "$WORKDIR/ca:/usr/local/etc:ro")
  info "npm in the build trusts $BUILD_CA (mounted for the build only)"
fi
t0=$EPOCHREALTIME
if ! $E "${build[@]}" . >"$WORKDIR/build.log" 2>&1; then
  tail -n 30 "$WORKDIR/build.log"
  fail "build: $E ${build[*]} failed"
  exit 1
fi
T_BUILD=$(since "$t0")
SIZE=$($E image inspect --format '{{.Size}}' "$IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }')
pass "build: ${T_BUILD}s, image $SIZE"
volumes=$($E image inspect --format '{{json .Config.Volumes}}' "$IMAGE")
check "image: no VOLUME (a run without -v makes no anonymous volume; Volumes=$volumes)" grep -qE '^(null|\{\})$' <<<"$volumes"
check "image: runs as user node" [ "$($E image inspect --format '{{.Config.User}}' "$IMAGE")" = node ]
# one-shot runs: --no-healthcheck (podman without systemd would complain that it cannot schedule it)
ONCE=(run --rm --no-healthcheck --network none)
left=$($E "${ONCE[@]}" --entrypoint sh "$IMAGE" -c 'ls -d node_modules/typescript node_modules/@typescript/* node_modules/@libsql/*musl* 2>/dev/null' | tr '\n' ' ')
mb=$($E "${ONCE[@]}" --entrypoint du "$IMAGE" -sm node_modules | cut -f1)
check "image: no TypeScript and no musl libsql in node_modules (left: ${left:-none}; node_modules $mb MB)" [ -z "$left" ]

# ---------------------------------------------------------------------------------------------------------------
step "2. options after the image name reach the sandbox (it is the entrypoint)"
version=$($E "${ONCE[@]}" "$IMAGE" --version 2>&1 | head -n 1)
check "entrypoint: IMAGE --version prints the sandbox's version ($version)" grep -q '^request-sandbox ' <<<"$version"
VOL=$TAG-data
VOLUMES+=("$VOL")
$E volume create "$VOL" >/dev/null
C1=$TAG-1
before_volumes=$($E volume ls -q | wc -l)
t0=$EPOCHREALTIME
run "$C1" -v "$VOL:/data" -e SANDBOX_STATE_DIR=/data -- --webhook-hosts host.docker.internal,host.containers.internal
if took=$(healthy "$C1"); then
  T_HEALTHY=$(since "$t0")
  pass "run: IMAGE --webhook-hosts h starts; GET /__sandbox/health 200 ${T_HEALTHY}s after run"
else
  fail "run: IMAGE --webhook-hosts h did not become healthy ($took)"
  exit 1
fi
check "run: no anonymous volume made (volumes before $before_volumes, after $($E volume ls -q | wc -l))" [ "$($E volume ls -q | wc -l)" -eq "$before_volumes" ]

# ---------------------------------------------------------------------------------------------------------------
step "3. inside the running container"
if [ "$E" = podman ]; then
  hc=$($E healthcheck run "$C1" 2>&1); hc_rc=$? # without systemd podman does not schedule it; run it here
else
  hc_cmd=$($E image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" | json 'r.Test.slice(1).join("\n")')
  hc=$(xargs -d '\n' $E exec "$C1" <<<"$hc_cmd" 2>&1); hc_rc=$?
fi
check "run: the HEALTHCHECK command passes (exit $hc_rc${hc:+, $hc})" [ "$hc_rc" -eq 0 ]
uid=$($E exec "$C1" sh -c 'grep ^Uid: /proc/1/status' 2>&1 | tr -s '\t ' ' ')
check "run: PID 1 runs as uid 1000 ($uid)" grep -qE '^Uid: 1000 1000 ' <<<"$uid"
procs=$($E top "$C1" 2>&1)
check "run: anvil runs inside" grep -q 'anvil' <<<"$procs"
chain=$(rpc eth_chainId '[]')
check "run: /rpc eth_chainId ($chain)" grep -q '"result":"0xaa36a7"' <<<"$chain"
llms=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL/llms.txt") guide=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL/guides/docker.md")
check "run: /llms.txt $llms and /guides/docker.md $guide (docs/ is in the image)" [ "$llms" = 200 -a "$guide" = 200 ]

created=$(api POST /v2/request paid-key "$REQUEST")
rid=$(json r.requestId <<<"${created#* }" 2>/dev/null)
check "pay: POST /v2/request 201 (requestId $rid)" [ "${created%% *}" = 201 -a -n "$rid" ]
payer=$(rpc eth_accounts '[]' | json 'r.result[1]')
pay=$(api GET "/v2/request/$rid/pay?wallet=$payer" paid-key)
txs=$(json 'r.transactions.map(t=>({from:"'"$payer"'",to:t.to,data:t.data,value:t.value.hex}))' <<<"${pay#* }" 2>/dev/null)
check "pay: GET /v2/request/{id}/pay 200 with $(json r.length <<<"${txs:-[]}") transactions for $payer" [ "${pay%% *}" = 200 -a -n "$txs" ]
sent=ok
for tx in $(json 'r.map(t=>JSON.stringify(t)).join(" ")' <<<"$txs"); do
  hash=$(rpc eth_sendTransaction "[$tx]" | json r.result)
  for _ in $(seq 100); do
    receipt=$(rpc eth_getTransactionReceipt "[\"$hash\"]" | json 'r.result&&r.result.status')
    [ "$receipt" = 0x1 ] && break
    sleep 0.1
  done
  [ "$receipt" = 0x1 ] || sent="$hash: $receipt"
done
check "pay: the transactions executed through /rpc (eth_sendTransaction, receipts status 1)" [ "$sent" = ok ]
paid=no
for _ in $(seq 100); do
  paid=$(api GET "/v2/request/$rid" paid-key | sed 's/^[0-9]* //' | json r.hasBeenPaid 2>/dev/null)
  [ "$paid" = true ] && break
  sleep 0.1
done
check "pay: the request is seen paid (hasBeenPaid: $paid)" [ "$paid" = true ]

# ---------------------------------------------------------------------------------------------------------------
step "4. state on the named volume across SIGTERM and SIGKILL"
read -r secs code < <(stop "$C1" TERM)
check "stop: SIGTERM ends it in ${secs}s with exit code $code (0 and under 10 s expected)" awk -v s="$secs" -v c="$code" 'BEGIN { exit !(s < 10 && c == 0) }'
C2=$TAG-2
run "$C2" -v "$VOL:/data" -e SANDBOX_STATE_DIR=/data
took=$(healthy "$C2")
check "restart: healthy again on the volume (${took}s)" [ $? -eq 0 ]
again=$(api GET "/v2/request/$rid" paid-key | sed 's/^[0-9]* //' | json r.hasBeenPaid 2>/dev/null)
check "restart: the paid request is read back after SIGTERM (hasBeenPaid: $again)" [ "$again" = true ]
created=$(api POST /v2/request paid-key "$REQUEST")
rid2=$(json r.requestId <<<"${created#* }" 2>/dev/null)
read -r secs code < <(stop "$C2" KILL)
info "SIGKILL right after a 201 (request $rid2): exit code $code"
C3=$TAG-3
run "$C3" -v "$VOL:/data" -e SANDBOX_STATE_DIR=/data
took=$(healthy "$C3")
check "restart: healthy after SIGKILL (${took}s)" [ $? -eq 0 ]
back=$(api GET "/v2/request/$rid2" paid-key)
check "restart: the request answered 201 just before SIGKILL is read back" [ "${back%% *}" = 200 -a -n "$rid2" ]
read -r secs code < <(stop "$C3" TERM)
info "stopped in ${secs}s, exit code $code"

# ---------------------------------------------------------------------------------------------------------------
step "5. a root-owned host folder on /data"
mkdir -p "$WORKDIR/root-owned" && chmod 755 "$WORKDIR/root-owned"
owner=$(stat -c %u "$WORKDIR/root-owned")
if [ "$owner" = 1000 ]; then
  info "skipped: this run's folders belong to uid 1000 (run as another user to check it)"
else
  C4=$TAG-4
  CONTAINERS+=("$C4")
  out=$($E run --no-healthcheck --name "$C4" --network none -v "$WORKDIR/root-owned:/data" -e SANDBOX_STATE_DIR=/data "$IMAGE" 2>&1 | head -n 3)
  code=$($E inspect --format '{{.State.ExitCode}}' "$C4")
  check "bind: exits $code naming the folder as not writable by uid 1000 (${out:0:220})" \
    bash -c '[ "$1" = 1 ] && grep -q "/data is not writable by uid 1000" <<<"$2"' _ "$code" "$out"
fi

# ---------------------------------------------------------------------------------------------------------------
step "6. compose.yaml (a shared demo: strict mode, named volume, documented flags)"
COMPOSE=
if command -v podman-compose >/dev/null && [ "$E" = podman ]; then COMPOSE=podman-compose
elif [ "$E" = podman ] && podman compose version >/dev/null 2>&1; then COMPOSE='podman compose'
elif [ "$E" = docker ] && docker compose version >/dev/null 2>&1; then COMPOSE='docker compose'
fi
export SANDBOX_IMAGE=$IMAGE SANDBOX_PORT=$PORT SANDBOX_API_KEYS=team-key-1,team-key-2 SANDBOX_ADMIN_KEY=admin-$TAG
if [ -n "$COMPOSE" ]; then
  mkdir -p "$WORKDIR/compose" && cp compose.yaml "$WORKDIR/compose/"
  info "$COMPOSE -p $TAG up -d (image $IMAGE, port $PORT)"
  if (cd "$WORKDIR/compose" && $COMPOSE -p "$TAG" up -d >"$WORKDIR/compose.log" 2>&1); then
    CC=$($E ps -a --format '{{.Names}}' | grep -E "^${TAG}[_-]sandbox" | head -n 1)
  else
    tail -n 10 "$WORKDIR/compose.log"; CC=
  fi
else
  info "no compose tool here (podman-compose, podman compose, docker compose): its equivalent run follows"
  CC=$TAG-compose
  VOLUMES+=("$TAG-demo")
  run "$CC" -v "$TAG-demo:/data" -e SANDBOX_STATE_DIR=/data -e SANDBOX_API_KEYS -e SANDBOX_ADMIN_KEY \
    -e SANDBOX_ALLOWED_ORIGINS=https://demo-app.example.com -e 'SANDBOX_WEBHOOK_HOSTS=*.example.com' \
    -- --max-webhooks 10 --webhook-rate 60 --max-clock-advance 1825
fi
took=$(healthy "${CC:-none}")
check "compose: the demo is healthy (${took}s)" [ $? -eq 0 ]
anon=$(api POST /v2/request '' "$REQUEST")
stranger=$(api POST /v2/request not-a-team-key "$REQUEST")
team=$(api POST /v2/request team-key-1 "$REQUEST")
check "compose: strict mode (no key ${anon%% *}, unknown key ${stranger%% *}, a team key ${team%% *})" \
  bash -c '[ "$1" = 401 ] && [ "${2:0:1}" = 4 ] && [ "$3" = 201 ]' _ "${anon%% *}" "${stranger%% *}" "${team%% *}"
mounts=$($E inspect --format '{{range .Mounts}}{{.Type}}:{{.Name}}:{{.Destination}} {{end}}' "${CC:-none}" 2>&1)
check "compose: /data on a named volume ($mounts)" grep -q 'volume:[^ ]*:/data' <<<"$mounts"
