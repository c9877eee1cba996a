#!/usr/bin/env bash
# Local development stack on 127.0.0.1: Kafka (single KRaft node from Maven Central jars),
# PostgreSQL and Redis (the machine's own when they answer, otherwise throwaway ones).
#
#   deploy/local/stack.sh up       start whatever is not running (idempotent), write .local/stack.env
#   deploy/local/stack.sh down     stop what this script started (idempotent)
#   deploy/local/stack.sh status   show each part (exit 0 only when all are up)
#   deploy/local/stack.sh env      print `export ...` lines (eval "$(deploy/local/stack.sh env)")
#   deploy/local/stack.sh reset    down, then delete Kafka's data and the throwaway PG/Redis data
#   deploy/local/stack.sh logs     tail the Kafka log
#
# One part at a time (PART = kafka|postgres|redis; only what this script starts is ever stopped):
#   deploy/local/stack.sh start PART                      start it if it is not running
#   deploy/local/stack.sh stop PART [--kill]              stop it; --kill = crash it instead of a clean
#                                                         shutdown (SIGKILL; Postgres: immediate mode)
#   deploy/local/stack.sh restart PART [--kill] [--down SECONDS]
#                                                         stop, stay down SECONDS (0), start; same data
#   These leave stack.env alone: the addresses do not change.
#
# Knobs (environment): KAFKA_VERSION, KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093),
#   KAFKA_HEAP_OPTS ("-Xms256m -Xmx768m"), KAFKA_READY_TIMEOUT (90), DATABASE_URL, PG_PORT (5433),
#   REDIS_URL, REDIS_PORT (6380), STACK_DIR (<repo>/.local), JAVA_HOME.
#   KAFKA_JARS_DIR (<STACK_DIR>/kafka/libs): where the Kafka jars are read from, and fetched to when
#   missing; point a second stack at <repo>/.local/kafka/libs to reuse the jars already fetched.
#   PG_THROWAWAY=1: always run the throwaway PostgreSQL on PG_PORT (DATABASE_URL and the machine's
#   server are then ignored).
#   For tests only: SYSTEM_PG_PORT (5432) / SYSTEM_REDIS_PORT (6379) = the machine's own servers.
set -euo pipefail

# ---------------------------------------------------------------------------------------------
# Locations
# ---------------------------------------------------------------------------------------------
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd -P)"
STACK_DIR="${STACK_DIR:-$REPO_ROOT/.local}"

DEFAULT_KAFKA_VERSION="4.3.1"
KAFKA_VERSION="${KAFKA_VERSION:-$DEFAULT_KAFKA_VERSION}"
KAFKA_MAJOR="${KAFKA_VERSION%%.*}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx768m}"
KAFKA_READY_TIMEOUT="${KAFKA_READY_TIMEOUT:-90}"
PG_PORT="${PG_PORT:-5433}"
REDIS_PORT="${REDIS_PORT:-6380}"
SYSTEM_PG_PORT="${SYSTEM_PG_PORT:-5432}"
SYSTEM_REDIS_PORT="${SYSTEM_REDIS_PORT:-6379}"
PG_THROWAWAY="${PG_THROWAWAY:-0}"
PG_DB="cms"

RUN_DIR="$STACK_DIR/run"
LOG_DIR="$STACK_DIR/logs"
KAFKA_HOME="$STACK_DIR/kafka"
KAFKA_LIBS="${KAFKA_JARS_DIR:-$KAFKA_HOME/libs}"
KAFKA_LIBS_MARKER="$KAFKA_LIBS/.kafka-version"
KAFKA_DATA="$KAFKA_HOME/data"
KAFKA_PROPS="$KAFKA_HOME/server.properties"
KAFKA_CLUSTER_ID_FILE="$KAFKA_HOME/cluster.id"
KAFKA_FORMATTED_MARKER="$KAFKA_HOME/formatted-by.version"
KAFKA_PID_FILE="$RUN_DIR/kafka.pid"
KAFKA_LOG="$LOG_DIR/kafka.log"
KAFKA_OUT="$LOG_DIR/kafka.out"
PG_HOME="$STACK_DIR/pg"
PG_DATA="$PG_HOME/data"
PG_SOCK_DIR="$RUN_DIR/pg"
PG_LOG="$LOG_DIR/postgres.log"
PG_MODE_FILE="$RUN_DIR/postgres.mode"
REDIS_HOME="$STACK_DIR/redis"
REDIS_PID_FILE="$RUN_DIR/redis.pid"
REDIS_LOG="$LOG_DIR/redis.log"
REDIS_MODE_FILE="$RUN_DIR/redis.mode"
ENV_FILE="$STACK_DIR/stack.env"
LOCK_FILE="$RUN_DIR/stack.lock"

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------
log()  { printf '[stack] %s\n' "$*" >&2; }
warn() { printf '[stack] WARNING: %s\n' "$*" >&2; }
die()  { printf '[stack] ERROR: %s\n' "$*" >&2; exit 1; }

# port_open HOST PORT: true when something accepts TCP connections there.
port_open() { timeout 2 bash -c ">/dev/tcp/$1/$2" 2>/dev/null; }

# pid_alive PID [PATTERN]: process exists (and its command line contains PATTERN).
pid_alive() {
  local pid="$1" pattern="${2:-}"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  [[ -z "$pattern" ]] && return 0
  [[ -r "/proc/$pid/cmdline" ]] || return 0
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$pattern"
}

read_pid() { if [[ -s "$1" ]]; then tr -dc '0-9' <"$1"; fi; }

# stop_pid PID WHAT [SECONDS]: SIGTERM, wait, then SIGKILL.
stop_pid() {
  local pid="$1" what="$2" secs="${3:-30}" i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < secs * 5; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  warn "$what (pid $pid) did not stop within ${secs}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.5
}

# kill_pid PID PATTERN: SIGKILL, then wait until it is gone. Matching the command line as well
# counts a zombie (nobody may reap it in a container) as gone.
kill_pid() {
  local pid="$1" pattern="$2" i
  kill -KILL "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do
    pid_alive "$pid" "$pattern" || return 0
    sleep 0.1
  done
  warn "pid $pid is still there 10s after SIGKILL"
}

java_bin() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    echo "$JAVA_HOME/bin/java"
  elif command -v java >/dev/null 2>&1; then
    command -v java
  else
    die "java not found (install a JDK 17+ or set JAVA_HOME)"
  fi
}

check_java() {
  local java ver major
  java="$(java_bin)"
  ver="$("$java" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}')"
  major="${ver%%.*}"
  [[ "$major" == "1" ]] && major=8
  [[ "$major" =~ ^[0-9]+$ ]] || die "cannot tell the Java version of $java ('$ver')"
  ((major >= 17)) || die "Kafka $KAFKA_VERSION needs Java 17+, $java is $ver (set JAVA_HOME)"
}

ensure_dirs() { mkdir -p "$RUN_DIR" "$LOG_DIR" "$KAFKA_HOME"; }

# Serialise up/down between concurrent callers. Daemons started below get `9>&-` so they don't
# inherit (and hold) the lock.
with_lock() {
  ensure_dirs
  exec 9>>"$LOCK_FILE"
  if ! flock -w 180 9; then die "another stack.sh has held $LOCK_FILE for 3 minutes"; fi
}

# ---------------------------------------------------------------------------------------------
# Kafka
# ---------------------------------------------------------------------------------------------
kafka_fetch_jars() {
  if [[ -f "$KAFKA_LIBS_MARKER" && "$(cat "$KAFKA_LIBS_MARKER")" == "$KAFKA_VERSION" ]] &&
     compgen -G "$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar" >/dev/null; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found: it is needed once to fetch the Kafka jars"
  local tmp="$KAFKA_LIBS.tmp.$$" mvnlog="$LOG_DIR/kafka-fetch.log" t0=$SECONDS
  log "fetching Kafka $KAFKA_VERSION jars from Maven Central into $KAFKA_LIBS (once; log: $mvnlog)"
  mkdir -p "$(dirname "$KAFKA_LIBS")"
  rm -rf "$tmp"
  if ! mvn -B -q -Dstyle.color=never -f "$SCRIPT_DIR/pom.xml" dependency:copy-dependencies \
        -Dkafka.version="$KAFKA_VERSION" -Dkafka.major="$KAFKA_MAJOR" \
        -DincludeScope=runtime -DoutputDirectory="$tmp" >"$mvnlog" 2>&1; then
    rm -rf "$tmp"
    grep -m 3 -E 'Could not|Failed to|not found|UnknownHost|Connect' "$mvnlog" | sed 's/\x1b\[[0-9;]*m//g' | cut -c1-400 >&2 || tail -n 5 "$mvnlog" >&2
    die "could not fetch Kafka $KAFKA_VERSION with mvn (see $mvnlog)"
  fi
  [[ -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]] || { rm -rf "$tmp"; die "mvn ran but kafka_2.13-$KAFKA_VERSION.jar is missing"; }
  echo "$KAFKA_VERSION" >"$tmp/.kafka-version"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
  log "fetched $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars in $((SECONDS - t0))s"
}

# Logging system properties for the broker (file) or the CLI tools (stderr, warnings only).
kafka_log_opts() {
  local kind="$1" # broker|tools
  if ((KAFKA_MAJOR >= 4)); then
    local f="$SCRIPT_DIR/kafka/log4j2.properties"
    [[ "$kind" == tools ]] && f="$SCRIPT_DIR/kafka/tools-log4j2.properties"
    echo "-Dlog4j2.configurationFile=$f"
  else
    local f="$SCRIPT_DIR/kafka/log4j.properties"
    [[ "$kind" == tools ]] && f="$SCRIPT_DIR/kafka/tools-log4j.properties"
    echo "-Dlog4j.configuration=file:$f"
  fi
}

# kafka_tool CLASS ARGS...: run a Kafka CLI class with the fetched jars (KAFKA_TOOL_TIMEOUT=secs to bound it).
kafka_tool() {
  local cls="$1"; shift
  local -a limit=()
  [[ -n "${KAFKA_TOOL_TIMEOUT:-}" ]] && limit=(timeout "$KAFKA_TOOL_TIMEOUT")
  # shellcheck disable=SC2046
  "${limit[@]}" "$(java_bin)" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    $(kafka_log_opts tools) -Dkafka.logs.dir="$LOG_DIR" -cp "$KAFKA_LIBS/*" "$cls" "$@"
}

kafka_render_props() {
  local tpl="$SCRIPT_DIR/kafka/server.properties.tpl" tmp="$KAFKA_PROPS.tmp.$$"
  sed -e "s#@KAFKA_PORT@#$KAFKA_PORT#g" \
      -e "s#@KAFKA_CONTROLLER_PORT@#$KAFKA_CONTROLLER_PORT#g" \
      -e "s#@KAFKA_DATA_DIR@#$KAFKA_DATA#g" "$tpl" >"$tmp"
  mv "$tmp" "$KAFKA_PROPS"
}

kafka_format_storage() {
  if [[ -f "$KAFKA_DATA/meta.properties" ]]; then
    local formatted_by
    formatted_by="$(cat "$KAFKA_FORMATTED_MARKER" 2>/dev/null || echo unknown)"
    if [[ "$formatted_by" != "$KAFKA_VERSION" ]]; then
      warn "Kafka data in $KAFKA_DATA was formatted by Kafka $formatted_by, running $KAFKA_VERSION"
      warn "(if the broker refuses to start: '$0 reset' wipes Kafka's data)"
    fi
    return 0
  fi
  if [[ ! -s "$KAFKA_CLUSTER_ID_FILE" ]]; then
    kafka_tool kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka-tools.log" | tail -n 1 | tr -d '[:space:]' >"$KAFKA_CLUSTER_ID_FILE.tmp"
    [[ -s "$KAFKA_CLUSTER_ID_FILE.tmp" ]] || die "could not generate a Kafka cluster id (see $LOG_DIR/kafka-tools.log)"
    mv "$KAFKA_CLUSTER_ID_FILE.tmp" "$KAFKA_CLUSTER_ID_FILE"
  fi
  local cid
  cid="$(cat "$KAFKA_CLUSTER_ID_FILE")"
  log "formatting Kafka storage in $KAFKA_DATA (cluster id $cid)"
  mkdir -p "$KAFKA_DATA"
  # Static controller.quorum.voters => no --standalone needed on either 3.9 or 4.x.
  if ! kafka_tool kafka.tools.StorageTool format --ignore-formatted -t "$cid" -c "$KAFKA_PROPS" \
        >>"$LOG_DIR/kafka-tools.log" 2>&1; then
    tail -n 20 "$LOG_DIR/kafka-tools.log" >&2
    die "kafka storage format failed"
  fi
  echo "$KAFKA_VERSION" >"$KAFKA_FORMATTED_MARKER"
}

# Prints the pid of our running broker (pid file, or a java process started with our props file).
kafka_running_pid() {
  local pid
  pid="$(read_pid "$KAFKA_PID_FILE")"
  if [[ -n "$pid" ]] && pid_alive "$pid" "$KAFKA_PROPS"; then
    echo "$pid"; return 0
  fi
  # Pid file lost but our broker still up (matched by its exact properties path)?
  local p
  for p in /proc/[0-9]*; do
    p="${p#/proc/}"
    [[ -r "/proc/$p/cmdline" ]] || continue
    if tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qF -- "kafka.Kafka $KAFKA_PROPS"; then
      echo "$p" >"$KAFKA_PID_FILE"
      echo "$p"; return 0
    fi
  done
  return 1
}

# Really ready = the broker answers a metadata request (not just an open port).
kafka_ready() {
  KAFKA_TOOL_TIMEOUT=30 kafka_tool org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "127.0.0.1:$KAFKA_PORT" --list >/dev/null 2>>"$LOG_DIR/kafka-tools.log"
}

kafka_fail() {
  {
    echo "---- last 40 lines of $KAFKA_LOG ----"
    tail -n 40 "$KAFKA_LOG" 2>/dev/null || true
    if [[ -s "$KAFKA_OUT" ]]; then
      echo "---- last 15 lines of $KAFKA_OUT ----"
      tail -n 15 "$KAFKA_OUT"
    fi
  } >&2
  die "$*"
}

kafka_wait_ready() {
  local pid="$1" deadline=$((SECONDS + KAFKA_READY_TIMEOUT))
  while ! port_open 127.0.0.1 "$KAFKA_PORT"; do
    pid_alive "$pid" || kafka_fail "Kafka exited during startup"
    ((SECONDS < deadline)) || kafka_fail "Kafka did not open 127.0.0.1:$KAFKA_PORT within ${KAFKA_READY_TIMEOUT}s"
    sleep 0.5
  done
  until kafka_ready; do
    pid_alive "$pid" || kafka_fail "Kafka exited during startup"
    ((SECONDS < deadline)) || kafka_fail "Kafka listens on $KAFKA_PORT but did not answer metadata requests within ${KAFKA_READY_TIMEOUT}s"
    sleep 1
  done
}

kafka_up() {
  local pid
  if pid="$(kafka_running_pid)"; then
    if port_open 127.0.0.1 "$KAFKA_PORT"; then
      log "kafka: already running (pid $pid) on 127.0.0.1:$KAFKA_PORT"
      return 0
    fi
    log "kafka: pid $pid is alive but port $KAFKA_PORT is closed; waiting for it"
    local t0=$SECONDS
    kafka_wait_ready "$pid"
    log "kafka: ready after $((SECONDS - t0))s"
    return 0
  fi
  rm -f "$KAFKA_PID_FILE"
  if port_open 127.0.0.1 "$KAFKA_PORT"; then
    die "port 127.0.0.1:$KAFKA_PORT is taken by a process this script did not start (set KAFKA_PORT)"
  fi
  if port_open 127.0.0.1 "$KAFKA_CONTROLLER_PORT"; then
    die "port 127.0.0.1:$KAFKA_CONTROLLER_PORT is taken by a process this script did not start (set KAFKA_CONTROLLER_PORT)"
  fi
  check_java
  kafka_fetch_jars
  kafka_render_props
  kafka_format_storage

  log "kafka: starting Kafka $KAFKA_VERSION on 127.0.0.1:$KAFKA_PORT (log: $KAFKA_LOG)"
  local t0=$SECONDS java
  java="$(java_bin)"
  : >"$KAFKA_OUT"
  # shellcheck disable=SC2086,SC2046
  setsid nohup "$java" $KAFKA_HEAP_OPTS -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent \
    -Djava.awt.headless=true -Dkafka.logs.dir="$LOG_DIR" $(kafka_log_opts broker) \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_PROPS" \
    </dev/null >>"$KAFKA_OUT" 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$KAFKA_PID_FILE"
  kafka_wait_ready "$pid"
  log "kafka: ready after $((SECONDS - t0))s (pid $pid)"
}

# kafka_down [--kill]: a clean shutdown, or a crash (SIGKILL) with --kill.
kafka_down() {
  local pid
  if pid="$(kafka_running_pid)"; then
    if [[ "${1:-}" == --kill ]]; then
      log "kafka: killing (SIGKILL, pid $pid)"
      kill_pid "$pid" "$KAFKA_PROPS"
    else
      log "kafka: stopping (pid $pid)"
      stop_pid "$pid" kafka 60
    fi
  else
    log "kafka: not running"
  fi
  rm -f "$KAFKA_PID_FILE"
}

kafka_status() {
  local pid
  if pid="$(kafka_running_pid)"; then
    if port_open 127.0.0.1 "$KAFKA_PORT"; then
      printf '%-9s %-8s %-45s %s\n' kafka up "127.0.0.1:$KAFKA_PORT" "Kafka $(cat "$KAFKA_LIBS_MARKER" 2>/dev/null || echo '?'), pid $pid, data $KAFKA_DATA"
      return 0
    fi
    printf '%-9s %-8s %-45s %s\n' kafka starting "127.0.0.1:$KAFKA_PORT" "pid $pid, port not open yet"
    return 1
  fi
  printf '%-9s %-8s %-45s %s\n' kafka down "127.0.0.1:$KAFKA_PORT" "not running"
  return 1
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL
# ---------------------------------------------------------------------------------------------
pg_bin_dir() {
  local d
  if command -v initdb >/dev/null 2>&1; then
    d="$(dirname "$(readlink -f "$(command -v initdb)")")"
    [[ -x "$d/pg_ctl" ]] && { echo "$d"; return 0; }
  fi
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  [[ -n "$d" && -x "$d/initdb" && -x "$d/pg_ctl" ]] || die "no PostgreSQL server binaries (initdb/pg_ctl) found; set DATABASE_URL"
  echo "$d"
}

# User that owns/runs the throwaway cluster (initdb and postgres refuse to run as root).
pg_run_user() {
  if [[ "$(id -u)" != 0 ]]; then id -un; return; fi
  if id postgres >/dev/null 2>&1; then echo postgres; else echo nobody; fi
}

as_pg_user() {
  local user="$1"; shift
  if [[ "$(id -u)" != 0 ]]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1; then
    (cd / && runuser -u "$user" -- "$@")
  else
    (cd / && su -s /bin/sh "$user" -c "$(printf '%q ' "$@")")
  fi
}

# Local throwaway cluster running?
pg_local_running() {
  [[ -f "$PG_DATA/postmaster.pid" ]] || return 1
  local pid
  pid="$(head -n 1 "$PG_DATA/postmaster.pid" | tr -dc '0-9')"
  pid_alive "$pid" && pg_isready -q -h 127.0.0.1 -p "$(sed -n 4p "$PG_DATA/postmaster.pid")" -t 2
}

pg_local_port() { sed -n 4p "$PG_DATA/postmaster.pid" 2>/dev/null | tr -dc '0-9'; }

# pg_role_for HOST PORT: first role that can connect (postgres, then root, then $USER).
pg_role_for() {
  local host="$1" port="$2" role
  for role in postgres root "$(id -un)"; do
    if psql -X -q -h "$host" -p "$port" -U "$role" -d postgres -Atc 'select 1' >/dev/null 2>&1; then
      echo "$role"; return 0
    fi
  done
  return 1
}

pg_ensure_db() {
  local host="$1" port="$2" role="$3"
  if [[ "$(psql -X -h "$host" -p "$port" -U "$role" -d postgres -Atc "select 1 from pg_database where datname = '$PG_DB'")" != 1 ]]; then
    log "postgres: creating database $PG_DB on $host:$port"
    psql -X -q -h "$host" -p "$port" -U "$role" -d postgres -c "CREATE DATABASE \"$PG_DB\"" >/dev/null ||
      die "could not create database $PG_DB on $host:$port"
  fi
}

pg_local_start() {
  local bin user
  bin="$(pg_bin_dir)"
  user="$(pg_run_user)"
  mkdir -p "$PG_HOME" "$PG_SOCK_DIR"
  touch "$PG_LOG"
  if [[ "$(id -u)" == 0 ]]; then
    chown "$user" "$PG_HOME" "$PG_SOCK_DIR" "$PG_LOG"
    [[ -d "$PG_DATA" ]] && chown -R "$user" "$PG_DATA"
    as_pg_user "$user" test -w "$PG_HOME" ||
      die "user '$user' cannot reach $PG_HOME (a parent directory is not traversable); set DATABASE_URL or STACK_DIR"
  fi
  if [[ ! -f "$PG_DATA/PG_VERSION" ]]; then
    log "postgres: initdb $PG_DATA (as $user, trust auth)"
    rm -rf "$PG_DATA"
    as_pg_user "$user" "$bin/initdb" -D "$PG_DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync \
      >>"$PG_LOG" 2>&1 || as_pg_user "$user" "$bin/initdb" -D "$PG_DATA" -U postgres -A trust -E UTF8 --locale=C --no-sync \
      >>"$PG_LOG" 2>&1 || { tail -n 20 "$PG_LOG" >&2; die "initdb failed (see $PG_LOG)"; }
  fi
  # A crashed server leaves postmaster.pid behind; pg_ctl/postgres cope with a stale one.
  log "postgres: starting throwaway cluster on 127.0.0.1:$PG_PORT (log: $PG_LOG)"
  if ! as_pg_user "$user" "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 60 \
        -o "-p $PG_PORT -k $PG_SOCK_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null 9>&-; then
    tail -n 20 "$PG_LOG" >&2
    die "could not start the throwaway PostgreSQL on port $PG_PORT (see $PG_LOG)"
  fi
}

pg_up() {
  if [[ "$PG_THROWAWAY" == 1 ]]; then
    if ! pg_local_running; then
      port_open 127.0.0.1 "$PG_PORT" && die "PG_THROWAWAY=1 but port $PG_PORT is taken; set PG_PORT"
      pg_local_start
    fi
    pg_ensure_db 127.0.0.1 "$(pg_local_port)" postgres
    echo local >"$PG_MODE_FILE"
    PG_URL="postgres://postgres@127.0.0.1:$(pg_local_port)/$PG_DB"
    log "postgres: throwaway cluster on 127.0.0.1:$(pg_local_port) (PG_THROWAWAY=1)"
    return 0
  fi
  if [[ -n "${DATABASE_URL:-}" ]]; then
    local i
    for ((i = 0; i < 60; i++)); do
      pg_isready -q -d "$DATABASE_URL" -t 2 && break
      ((i == 0)) && log "postgres: waiting for DATABASE_URL to answer"
      sleep 1
    done
    pg_isready -q -d "$DATABASE_URL" -t 2 || die "DATABASE_URL does not answer (pg_isready)"
    echo external >"$PG_MODE_FILE"
    PG_URL="$DATABASE_URL"
    log "postgres: using DATABASE_URL"
    return 0
  fi
  if pg_local_running; then
    PG_URL="postgres://postgres@127.0.0.1:$(pg_local_port)/$PG_DB"
    echo local >"$PG_MODE_FILE"
    pg_ensure_db 127.0.0.1 "$(pg_local_port)" postgres
    log "postgres: throwaway cluster already running on 127.0.0.1:$(pg_local_port)"
    return 0
  fi
  local role
  if pg_isready -q -h 127.0.0.1 -p "$SYSTEM_PG_PORT" -t 3 && role="$(pg_role_for 127.0.0.1 "$SYSTEM_PG_PORT")"; then
    pg_ensure_db 127.0.0.1 "$SYSTEM_PG_PORT" "$role"
    echo system >"$PG_MODE_FILE"
    PG_URL="postgres://$role@127.0.0.1:$SYSTEM_PG_PORT/$PG_DB"
    log "postgres: using the machine's server on 127.0.0.1:$SYSTEM_PG_PORT (role $role)"
    return 0
  fi
  if port_open 127.0.0.1 "$PG_PORT"; then
    die "nothing usable on 127.0.0.1:$SYSTEM_PG_PORT and port $PG_PORT is taken; set DATABASE_URL or PG_PORT"
  fi
  pg_local_start
  pg_ensure_db 127.0.0.1 "$PG_PORT" postgres
  echo local >"$PG_MODE_FILE"
  PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/$PG_DB"
}

# pg_down [--kill]: a fast shutdown, or with --kill an immediate one (no checkpoint: the next start
# recovers from the WAL, as after a crash).
pg_down() {
  if [[ -f "$PG_DATA/postmaster.pid" ]]; then
    local pid mode=fast
    [[ "${1:-}" == --kill ]] && mode=immediate
    pid="$(head -n 1 "$PG_DATA/postmaster.pid" | tr -dc '0-9')"
    if pid_alive "$pid"; then
      log "postgres: stopping the throwaway cluster (pid $pid, $mode)"
      as_pg_user "$(stat -c %U "$PG_DATA")" "$(pg_bin_dir)/pg_ctl" -D "$PG_DATA" -m "$mode" -w -t 60 stop >/dev/null ||
        stop_pid "$pid" postgres 30
    fi
  else
    local mode
    mode="$(cat "$PG_MODE_FILE" 2>/dev/null || echo none)"
    [[ "$mode" == local || "$mode" == none ]] || log "postgres: $mode server left alone (not started by this script)"
  fi
  rm -f "$PG_MODE_FILE"
}

pg_status() {
  local url="" mode
  mode="$(cat "$PG_MODE_FILE" 2>/dev/null || echo '')"
  [[ -f "$ENV_FILE" ]] && url="$(sed -n 's/^export DATABASE_URL=//p' "$ENV_FILE" | tr -d "'\"")"
  if pg_local_running; then
    printf '%-9s %-8s %-45s %s\n' postgres up "${url:-postgres://postgres@127.0.0.1:$(pg_local_port)/$PG_DB}" "throwaway cluster, data $PG_DATA"
    return 0
  fi
  if [[ -n "$url" ]] && pg_isready -q -d "$url" -t 2; then
    printf '%-9s %-8s %-45s %s\n' postgres up "$url" "${mode:-?} server (not managed by this script)"
    return 0
  fi
  printf '%-9s %-8s %-45s %s\n' postgres down "${url:--}" "${mode:+$mode, }not answering or not set up (run up)"
  return 1
}

# ---------------------------------------------------------------------------------------------
# Redis
# ---------------------------------------------------------------------------------------------
redis_local_pid() {
  local pid
  pid="$(read_pid "$REDIS_PID_FILE")"
  [[ -n "$pid" ]] && pid_alive "$pid" redis-server && echo "$pid"
}

redis_ping_url() { [[ "$(timeout 3 redis-cli -u "$1" ping 2>/dev/null)" == PONG ]]; }

redis_up() {
  command -v redis-cli >/dev/null 2>&1 || die "redis-cli not found (apt-get install redis-tools) or set REDIS_URL"
  if [[ -n "${REDIS_URL:-}" ]]; then
    local i
    for ((i = 0; i < 60; i++)); do
      redis_ping_url "$REDIS_URL" && break
      ((i == 0)) && log "redis: waiting for REDIS_URL to answer"
      sleep 1
    done
    redis_ping_url "$REDIS_URL" || die "REDIS_URL does not answer PING"
    echo external >"$REDIS_MODE_FILE"
    RD_URL="$REDIS_URL"
    log "redis: using REDIS_URL"
    return 0
  fi
  local pid
  if pid="$(redis_local_pid)"; then
    local port
    port="$(tr '\0' ' ' <"/proc/$pid/cmdline" | grep -oE ':[0-9]+' | tail -n 1 | tr -d ':')"
    port="${port:-$REDIS_PORT}"
    if redis_ping_url "redis://127.0.0.1:$port"; then
      echo local >"$REDIS_MODE_FILE"
      RD_URL="redis://127.0.0.1:$port"
      log "redis: throwaway server already running on 127.0.0.1:$port (pid $pid)"
      return 0
    fi
  fi
  if redis_ping_url "redis://127.0.0.1:$SYSTEM_REDIS_PORT"; then
    echo system >"$REDIS_MODE_FILE"
    RD_URL="redis://127.0.0.1:$SYSTEM_REDIS_PORT"
    log "redis: using the machine's server on 127.0.0.1:$SYSTEM_REDIS_PORT"
    return 0
  fi
  command -v redis-server >/dev/null 2>&1 || die "no Redis answers on $SYSTEM_REDIS_PORT and redis-server is not installed; set REDIS_URL"
  if port_open 127.0.0.1 "$REDIS_PORT"; then
    die "no Redis answers on $SYSTEM_REDIS_PORT and port $REDIS_PORT is taken; set REDIS_URL or REDIS_PORT"
  fi
  mkdir -p "$REDIS_HOME"
  rm -f "$REDIS_PID_FILE"
  log "redis: starting throwaway server on 127.0.0.1:$REDIS_PORT (log: $REDIS_LOG)"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no --daemonize yes \
    --dir "$REDIS_HOME" --pidfile "$REDIS_PID_FILE" --logfile "$REDIS_LOG" >/dev/null 9>&- ||
    die "redis-server failed to start (see $REDIS_LOG)"
  local i
  for ((i = 0; i < 50; i++)); do
    redis_ping_url "redis://127.0.0.1:$REDIS_PORT" && break
    sleep 0.2
  done
  redis_ping_url "redis://127.0.0.1:$REDIS_PORT" || { tail -n 20 "$REDIS_LOG" >&2; die "redis-server did not answer PING"; }
  echo local >"$REDIS_MODE_FILE"
  RD_URL="redis://127.0.0.1:$REDIS_PORT"
}

# redis_down [--kill]
redis_down() {
  local pid
  if pid="$(redis_local_pid)"; then
    if [[ "${1:-}" == --kill ]]; then
      log "redis: killing the throwaway server (SIGKILL, pid $pid)"
      kill_pid "$pid" redis-server
    else
      log "redis: stopping the throwaway server (pid $pid)"
      stop_pid "$pid" redis 20
    fi
  else
    local mode
    mode="$(cat "$REDIS_MODE_FILE" 2>/dev/null || echo none)"
    [[ "$mode" == local || "$mode" == none ]] || log "redis: $mode server left alone (not started by this script)"
  fi
  rm -f "$REDIS_PID_FILE" "$REDIS_MODE_FILE"
}

redis_status() {
  local url="" mode pid
  mode="$(cat "$REDIS_MODE_FILE" 2>/dev/null || echo '')"
  [[ -f "$ENV_FILE" ]] && url="$(sed -n 's/^export REDIS_URL=//p' "$ENV_FILE" | tr -d "'\"")"
  if pid="$(redis_local_pid)"; then
    printf '%-9s %-8s %-45s %s\n' redis up "${url:-?}" "throwaway server, pid $pid"
    return 0
  fi
  if [[ -n "$url" ]] && redis_ping_url "$url"; then
    printf '%-9s %-8s %-45s %s\n' redis up "$url" "${mode:-?} server (not managed by this script)"
    return 0
  fi
  printf '%-9s %-8s %-45s %s\n' redis down "${url:--}" "${mode:+$mode, }not answering or not set up (run up)"
  return 1
}

# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------
write_env() {
  local tmp="$ENV_FILE.tmp.$$"
  {
    echo "# Written by deploy/local/stack.sh up on $(date -u +%Y-%m-%dT%H:%M:%SZ); source it."
    printf 'export KAFKA_BROKERS=%q\n' "127.0.0.1:$KAFKA_PORT"
    printf 'export DATABASE_URL=%q\n' "$PG_URL"
    printf 'export REDIS_URL=%q\n' "$RD_URL"
  } >"$tmp"
  mv "$tmp" "$ENV_FILE"
}

cmd_up() {
  with_lock
  local t0=$SECONDS
  PG_URL="" RD_URL=""
  pg_up
  redis_up
  kafka_up
  write_env
  log "up in $((SECONDS - t0))s; addresses (also in $ENV_FILE):"
  grep '^export' "$ENV_FILE" | sed 's/^/    /' >&2
}

cmd_down() {
  with_lock
  kafka_down
  redis_down
  pg_down
  rm -f "$ENV_FILE"
  log "down"
}

cmd_status() {
  local rc=0
  kafka_status || rc=1
  pg_status || rc=1
  redis_status || rc=1
  return $rc
}

cmd_env() {
  [[ -f "$ENV_FILE" ]] || die "no $ENV_FILE: run '$0 up' first"
  grep '^export' "$ENV_FILE"
}

cmd_reset() {
  cmd_down
  log "deleting Kafka data, throwaway PostgreSQL and Redis data (jars are kept)"
  rm -rf "$KAFKA_DATA" "$KAFKA_FORMATTED_MARKER" "$KAFKA_CLUSTER_ID_FILE" "$KAFKA_PROPS" "$PG_HOME" "$REDIS_HOME"
}

# cmd_part start|stop|restart PART [--kill] [--down SECONDS]: one part of the stack.
cmd_part() {
  local action="$1" part="${2:-}" kill="" down=0
  case "$part" in
    kafka | postgres | redis) ;;
    *) echo "$action needs a part: kafka, postgres or redis" >&2; usage ;;
  esac
  shift 2
  while (($# > 0)); do
    case "$1" in
      --kill) [[ "$action" != start ]] || usage; kill=--kill ;;
      --down)
        [[ "$action" == restart && "${2:-}" =~ ^[0-9]+([.][0-9]+)?$ ]] || usage
        down="$2"
        shift
        ;;
      *) echo "unknown option: $1" >&2; usage ;;
    esac
    shift
  done
  with_lock
  PG_URL="" RD_URL=""
  if [[ "$action" != start ]]; then
    case "$part" in
      kafka) kafka_down "$kill" ;;
      postgres) pg_down "$kill" ;;
      redis) redis_down "$kill" ;;
    esac
  fi
  [[ "$action" == stop ]] && return 0
  sleep "$down"
  case "$part" in
    kafka) kafka_up ;;
    postgres) pg_up ;;
    redis) redis_up ;;
  esac
}

usage() {
  sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
  exit 2
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) cmd_env ;;
  reset) cmd_reset ;;
  logs) tail -n "${2:-100}" -F "$KAFKA_LOG" ;;
  start | stop | restart) cmd_part "$@" ;;
  -h | --help | help | "") usage ;;
  *) echo "unknown command: $1" >&2; usage ;;
esac
