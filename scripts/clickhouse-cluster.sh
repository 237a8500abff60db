#!/usr/bin/env bash
# A two-shard ClickHouse cluster on this machine, as user processes on loopback ports:
#   scripts/clickhouse-cluster.sh start DIR   starts ZooKeeper and two clickhouse-server nodes with their data in
#                                            DIR, configured as the cluster gcpc_two_shards; its last line is the
#                                            first node's clickhouse:// URL
#   scripts/clickhouse-cluster.sh stop DIR    ends exactly those three processes, by the pids written in DIR
# Needs Debian's clickhouse-server and zookeeper (scripts/setup.sh installs them). Ports: GCPC_CH_PORT_BASE
# (default: a free block found from 18100) + 0..6. The distributed DDL (CREATE/RENAME ... ON CLUSTER) goes
# through ZooKeeper, as on a production cluster.
set -euo pipefail
cmd="${1:-}"
dir="${2:-}"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: scripts/clickhouse-cluster.sh start DIR | stop DIR" >&2
  exit 2
fi

stop_pids() { # pid files: TERM to each, then wait up to 30 s for all to end (a server takes up to ~10 s)
  local pids=() file pid
  for file in "$@"; do
    [ -f "$file" ] || continue
    pid="$(cat "$file")"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      # Only a process this script started: its command line names this folder (a reused pid does not).
      if tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$dir/"; then
        kill "$pid" 2>/dev/null || true
        pids+=("$pid")
      else
        echo "clickhouse-cluster: pid $pid of $file is not a process this script started in $dir; left alone" >&2
      fi
    fi
  done
  for _ in $(seq 1 300); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      echo "clickhouse-cluster: pid $pid did not stop in 30 s; killing it" >&2
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
  rm -f "$@"
}

if [ "$cmd" = "stop" ]; then
  [ -d "$dir" ] || { echo "clickhouse-cluster: no folder $dir" >&2; exit 2; }
  dir="$(cd "$dir" && pwd)"
  # The servers first (they hold ZooKeeper sessions), then ZooKeeper.
  stop_pids "$dir/n1/pid" "$dir/n2/pid"
  stop_pids "$dir/zk/pid"
  exit 0
fi
[ "$cmd" = "start" ] || { echo "clickhouse-cluster: unknown command $cmd (start or stop)" >&2; exit 2; }

command -v clickhouse-server >/dev/null 2>&1 ||
  { echo "clickhouse-cluster: clickhouse-server not installed (bash scripts/setup.sh installs it)" >&2; exit 1; }
[ -f /usr/share/java/zookeeper.jar ] ||
  { echo "clickhouse-cluster: zookeeper not installed (bash scripts/setup.sh installs it)" >&2; exit 1; }
command -v java >/dev/null 2>&1 || { echo "clickhouse-cluster: java not found (the zookeeper package needs it)" >&2; exit 1; }
if [ -f "$dir/n1/pid" ] && kill -0 "$(cat "$dir/n1/pid")" 2>/dev/null; then
  echo "clickhouse-cluster: a cluster already runs from $dir (stop it first)" >&2
  exit 1
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base="${GCPC_CH_PORT_BASE:-}"
if [ -z "$base" ]; then
  base=18100
  while :; do
    ok=1
    for i in 0 1 2 3 4 5 6; do port_free $((base + i)) || { ok=0; break; }; done
    [ "$ok" = 1 ] && break
    base=$((base + 10))
    [ "$base" -lt 19000 ] || { echo "clickhouse-cluster: no free block of 7 ports in 18100-18999" >&2; exit 1; }
  done
fi
zk_port=$base
# Every port free before anything starts: a port another program holds is named, not met later as a crash.
for i in 0 1 2 3 4 5 6; do
  port_free $((base + i)) || { echo "clickhouse-cluster: port $((base + i)) on 127.0.0.1 is taken by another program" >&2; exit 1; }
done
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

# ZooKeeper: its zkServer.sh takes no private config folder, so the server class is started directly.
mkdir -p "$dir/zk/data"
printf 'tickTime=2000\ndataDir=%s\nclientPort=%s\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n' \
  "$dir/zk/data" "$zk_port" > "$dir/zk/zoo.cfg"
J=/usr/share/java
cp="$J/zookeeper.jar:$J/zookeeper-jute.jar:$J/slf4j-api.jar:$J/slf4j-simple.jar:$J/netty-handler.jar"
cp="$cp:$J/netty-common.jar:$J/netty-buffer.jar:$J/netty-transport.jar:$J/netty-transport-native-unix-common.jar"
cp="$cp:$J/netty-codec.jar:$J/netty-resolver.jar:$J/commons-cli.jar:$J/log4j-1.2.jar"
nohup java -Xmx256m -cp "$cp" -Dzookeeper.admin.enableServer=false \
  org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zk/zoo.cfg" > "$dir/zk/log" 2>&1 &
echo $! > "$dir/zk/pid"

for n in 1 2; do
  node="$dir/n$n"
  mkdir -p "$node/config.d" "$node/data" "$node/tmp" "$node/uf" "$node/fs"
  cp /etc/clickhouse-server/config.xml /etc/clickhouse-server/users.xml "$node/"
  # GCPC_CLICKHOUSE_LOG_QUERIES=1: every query in system.query_log (the arms bench counts the bytes shards send).
  if [ "${GCPC_CLICKHOUSE_LOG_QUERIES:-0}" = 1 ]; then
    sed -i '0,/<default>/s//<default><log_queries>1<\/log_queries>/' "$node/users.xml"
  fi
  cat > "$node/config.d/cluster.xml" <<XML
<yandex>
  <remote_servers>
    <gcpc_two_shards>
      <shard><replica><host>127.0.0.1</host><port>$((base + 2))</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$((base + 5))</port></replica></shard>
    </gcpc_two_shards>
  </remote_servers>
  <zookeeper><node><host>127.0.0.1</host><port>$zk_port</port></node></zookeeper>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
</yandex>
XML
done

start_node() { # n http tcp interserver
  local node="$dir/n$1"
  # 18.16 spells the pid option --pidfile; the pid a shell's $! gives is not the server's.
  nohup clickhouse-server --config-file="$node/config.xml" --pidfile="$node/pid" -- \
    --path="$node/data/" --tmp_path="$node/tmp/" --user_files_path="$node/uf/" --format_schema_path="$node/fs/" \
    --logger.log="$node/log" --logger.errorlog="$node/err" --logger.level=warning --listen_host=127.0.0.1 \
    --http_port="$2" --tcp_port="$3" --interserver_http_port="$4" > "$node/stdout" 2>&1 &
}

wait_http() { # port name log
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "clickhouse-cluster: $2 did not answer on 127.0.0.1:$1 in 30 s; its log: $3" >&2
  tail -5 "$3" >&2 || true
  "$0" stop "$dir" || true
  exit 1
}
# ZooKeeper serves before either node starts: a node whose DDL worker finds no ZooKeeper session at start-up
# (ClickHouse 18.16: "All connection tries failed while connecting to ZooKeeper" in DDLWorker::run) keeps no
# session, and then segfaults on its first ON CLUSTER statement (zkutil::ZooKeeper::createImpl on a null pointer;
# the nodes used to start beside ZooKeeper and won this race now and then).
wait_http "$zk_port" "ZooKeeper" "$dir/zk/log"
# ZooKeeper itself answers there (its srvr command), and the process this script started is alive: a port taken
# between the check and the start would otherwise pass for a running ZooKeeper.
for _ in $(seq 1 300); do
  zk_says="$(exec 3<>"/dev/tcp/127.0.0.1/$zk_port"; printf 'srvr' >&3; head -1 <&3)" || true
  [[ "$zk_says" == Zookeeper* ]] && break
  kill -0 "$(cat "$dir/zk/pid")" 2>/dev/null || break
  sleep 0.1
done
if ! kill -0 "$(cat "$dir/zk/pid")" 2>/dev/null || [[ "$zk_says" != Zookeeper* ]]; then
  echo "clickhouse-cluster: ZooKeeper did not start on 127.0.0.1:$zk_port (the port answered \"$zk_says\"); its log: $dir/zk/log" >&2
  "$0" stop "$dir" || true
  exit 1
fi
start_node 1 $((base + 1)) $((base + 2)) $((base + 3))
start_node 2 $((base + 4)) $((base + 5)) $((base + 6))
wait_http $((base + 1)) "node 1" "$dir/n1/err"
wait_http $((base + 4)) "node 2" "$dir/n2/err"
# Each node is ClickHouse (its /ping answers "Ok.") and alive.
for n in 1 2; do
  port=$((base + 3 * n - 2))
  pong="$(exec 3<>"/dev/tcp/127.0.0.1/$port"; printf 'GET /ping HTTP/1.0\r\n\r\n' >&3; tail -1 <&3)" || true
  if [ "$pong" != "Ok." ] || ! kill -0 "$(cat "$dir/n$n/pid" 2>/dev/null || echo 0)" 2>/dev/null; then
    echo "clickhouse-cluster: node $n is not answering as ClickHouse on http port $port (got \"$pong\"); its log: $dir/n$n/err" >&2
    "$0" stop "$dir" || true
    exit 1
  fi
done
# Both nodes see the cluster (its two shards) before the URL is handed out.
for port in $((base + 1)) $((base + 4)); do
  for _ in $(seq 1 100); do
    got="$(exec 3<>"/dev/tcp/127.0.0.1/$port"; printf 'GET /?query=SELECT%%20count()%%20FROM%%20system.clusters%%20WHERE%%20cluster%%3D%%27gcpc_two_shards%%27 HTTP/1.0\r\n\r\n' >&3; tail -1 <&3)" || true
    [ "$got" = "2" ] && break
    sleep 0.1
  done
  [ "$got" = "2" ] || { echo "clickhouse-cluster: the node on http port $port does not list the cluster gcpc_two_shards" >&2; "$0" stop "$dir"; exit 1; }
done
# Neither node's DDL worker failed to reach ZooKeeper (see above): such a node would crash on ON CLUSTER.
for n in 1 2; do
  if grep -q "DDLWorker::run().*ZooKeeper" "$dir/n$n/err" 2>/dev/null; then
    echo "clickhouse-cluster: node $n started without a ZooKeeper session for distributed DDL; its log: $dir/n$n/err" >&2
    "$0" stop "$dir" || true
    exit 1
  fi
done
echo "zookeeper 127.0.0.1:$zk_port; node 1 http $((base + 1)) tcp $((base + 2)); node 2 http $((base + 4)) tcp $((base + 5))"
echo "clickhouse://127.0.0.1:$((base + 1))/gcpc"
