#include "experiments/store/cell_claim.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/privacy/rng.hpp"  // mix64-based hashing (no randomness drawn)
#include "core/util/error.hpp"

namespace dpf {

namespace fs = std::filesystem;

namespace {

int64_t now_seconds() { return static_cast<int64_t>(std::time(nullptr)); }

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// Writes `text` to a new file `path` (fails if it exists) and syncs it.
bool write_new_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return false;
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::fsync(fd) == 0 && ok;
  ok = ::close(fd) == 0 && ok;
  if (!ok) ::unlink(path.c_str());
  return ok;
}

std::string temp_name(const std::string& path, const ClaimInfo& me) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + me.host + "." + std::to_string(me.pid) + "." + std::to_string(counter++);
}

bool same_owner(const ClaimInfo& a, const ClaimInfo& b) {
  return a.token == b.token && a.host == b.host && a.pid == b.pid;
}

}  // namespace

ClaimInfo this_process_claimant() {
  ClaimInfo c;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  c.host = host;
  for (char& ch : c.host)
    if (ch == ' ' || ch == '\n' || ch == '=' || ch == '/') ch = '_';
  const std::string array = env_or("SLURM_ARRAY_JOB_ID", ""), task = env_or("SLURM_ARRAY_TASK_ID", "");
  c.job = !array.empty() && !task.empty() ? array + "_" + task : env_or("SLURM_JOB_ID", "-");
  for (char& ch : c.job)
    if (ch == ' ' || ch == '\n' || ch == '=') ch = '_';
  c.pid = static_cast<long>(::getpid());
  // The token only tells apart claims of one host and pid (a requeued job can reuse a pid): a hash of
  // host, pid, the wall clock in nanoseconds and a per-process counter, no random source needed.
  static std::atomic<uint64_t> made{0};
  uint64_t h = hash_combine(hash_string(c.host), static_cast<uint64_t>(c.pid));
  h = hash_combine(h, static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
  h = hash_combine(h, made.fetch_add(1));
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  c.token = buf;
  c.started = now_seconds();
  return c;
}

std::string format_claim(const ClaimInfo& c) {
  std::ostringstream o;
  o << "dpforest-claim v1 host=" << c.host << " job=" << c.job << " pid=" << c.pid << " token=" << c.token
    << " started=" << c.started << " heartbeat=" << c.heartbeat << " expires=" << c.expires << "\n";
  return o.str();
}

std::optional<ClaimInfo> read_claim(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  if (!std::getline(in, line) || line.size() > 1000) return std::nullopt;
  std::istringstream s(line);
  std::string magic, version, field;
  s >> magic >> version;
  if (magic != "dpforest-claim" || version != "v1") return std::nullopt;
  ClaimInfo c;
  int seen = 0;
  try {
    while (s >> field) {
      const auto eq = field.find('=');
      if (eq == std::string::npos) return std::nullopt;
      const std::string k = field.substr(0, eq), v = field.substr(eq + 1);
      if (k == "host") c.host = v;
      else if (k == "job") c.job = v;
      else if (k == "token") c.token = v;
      else if (k == "pid") c.pid = std::stol(v);
      else if (k == "started") c.started = std::stoll(v);
      else if (k == "heartbeat") c.heartbeat = std::stoll(v);
      else if (k == "expires") c.expires = std::stoll(v);
      else continue;
      ++seen;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (seen != 7) return std::nullopt;
  return c;
}

bool claim_is_stale(const ClaimInfo& c, int64_t now, const std::string& host) {
  if (c.expires < now) return true;
  // On this machine a claim whose process is gone is dead at once (a local run killed with SIGKILL).
  return c.host == host && c.pid > 0 && ::kill(static_cast<pid_t>(c.pid), 0) != 0 && errno == ESRCH;
}

bool try_claim(const std::string& path, const ClaimInfo& me_in, int ttl, ClaimInfo* holder) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  ClaimInfo me = me_in;
  for (int attempt = 0; attempt < 3; ++attempt) {
    me.heartbeat = now_seconds();
    me.expires = me.heartbeat + ttl;
    const std::string tmp = temp_name(path, me);
    if (!write_new_file(tmp, format_claim(me))) fail("cannot write the claim '", tmp, "': ", std::strerror(errno));
    const int linked = ::link(tmp.c_str(), path.c_str());
    const int link_errno = errno;
    ::unlink(tmp.c_str());
    if (linked == 0) return true;
    if (link_errno != EEXIST) fail("cannot create the claim '", path, "': ", std::strerror(link_errno));
    const std::optional<ClaimInfo> other = read_claim(path);
    if (!other) {
      // Unreadable: written by something else, or vanished between link and read; a claim is
      // written before it is linked, so a half-written one cannot be seen. Retry, then give up.
      if (!fs::exists(path, ec)) continue;
      if (holder) *holder = ClaimInfo{"?", "?", "", 0, 0, 0, 0};
      return false;
    }
    if (!claim_is_stale(*other, now_seconds(), me.host)) {
      if (holder) *holder = *other;
      return false;
    }
    // Take the stale claim aside; only one job wins the rename. If what we moved is not the stale
    // claim we read (someone replaced it meanwhile), put it back.
    const std::string aside = temp_name(path + ".stale", me);
    if (::rename(path.c_str(), aside.c_str()) != 0) continue;
    const std::optional<ClaimInfo> moved = read_claim(aside);
    if (moved && !claim_is_stale(*moved, now_seconds(), me.host)) {
      ::link(aside.c_str(), path.c_str());  // fails only if yet another claim appeared: then it holds
      ::unlink(aside.c_str());
      if (holder) *holder = *moved;
      return false;
    }
    ::unlink(aside.c_str());
  }
  if (holder) *holder = read_claim(path).value_or(ClaimInfo{"?", "?", "", 0, 0, 0, 0});
  return false;
}

bool refresh_claim(const std::string& path, const ClaimInfo& me_in, int ttl) {
  const std::optional<ClaimInfo> cur = read_claim(path);
  if (!cur || !same_owner(*cur, me_in)) return false;
  ClaimInfo me = *cur;
  me.heartbeat = now_seconds();
  me.expires = me.heartbeat + ttl;
  const std::string tmp = temp_name(path, me);
  if (!write_new_file(tmp, format_claim(me))) return false;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

void release_claim(const std::string& path, const ClaimInfo& me) {
  const std::optional<ClaimInfo> cur = read_claim(path);
  if (cur && same_owner(*cur, me)) ::unlink(path.c_str());
}

void block_termination_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

ClaimKeeper::ClaimKeeper(int ttl, bool watch_signals, std::function<void(ClaimKeeper&, int)> on_signal)
    : me_(this_process_claimant()), ttl_(ttl), watch_signals_(watch_signals), on_signal_(std::move(on_signal)) {
  require(ttl >= 2, "the claim ttl must be at least 2 seconds, got ", ttl);
  thread_ = std::thread([this] { loop(); });
}

ClaimKeeper::~ClaimKeeper() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  release_all();
}

bool ClaimKeeper::acquire(const std::string& path, ClaimInfo* holder) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) {
    if (holder) *holder = me_;
    return false;
  }
  if (!try_claim(path, me_, ttl_, holder)) return false;
  held_.insert(path);
  return true;
}

void ClaimKeeper::close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
  for (const auto& p : held_) release_claim(p, me_);
  held_.clear();
}

void ClaimKeeper::release(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (held_.erase(path)) release_claim(path, me_);
}

void ClaimKeeper::release_all() {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& p : held_) release_claim(p, me_);
  held_.clear();
}

void ClaimKeeper::loop() {
  const auto beat = std::chrono::milliseconds(std::max(500, ttl_ * 1000 / 4));
  auto next = std::chrono::steady_clock::now() + beat;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (stop_) return;
      if (std::chrono::steady_clock::now() >= next) {
        for (const auto& p : held_) refresh_claim(p, me_, ttl_);
        next = std::chrono::steady_clock::now() + beat;
      }
      if (!watch_signals_) {
        cv_.wait_until(lock, next, [this] { return stop_; });
        continue;
      }
    }
    // Signals: wait for one for at most 200 ms, then look at stop_ and the heartbeat again.
    timespec wait{0, 200'000'000};
    const int sig = sigtimedwait(&set, nullptr, &wait);
    if (sig > 0 && on_signal_) on_signal_(*this, sig);
  }
}

}  // namespace dpf
