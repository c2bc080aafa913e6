// Claims on a shared results folder, so that concurrent jobs never compute a unit twice: before a job computes a unit of work (a cell
// or a piece of one) it creates cells/<unit>.claim atomically (a temporary file hard-linked to the
// claim's name: link() fails when the name exists, also over NFS), holding who claimed it and until
// when. Two jobs on the same shard therefore never compute the same unit twice: the second sees a
// live claim and skips the unit. A claim expires unless its holder refreshes it (a heartbeat every
// ttl / 4), so a job killed with SIGKILL blocks its units for at most the ttl; on the holder's own host
// a claim whose process is gone is stale at once. A stale claim is taken over by renaming it aside
// first, so two jobs cannot both take it over.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace dpf {

struct ClaimInfo {
  std::string host, job, token;
  long pid = 0;
  int64_t started = 0, heartbeat = 0, expires = 0;  // unix seconds
};

// This process as a claim holder: host name, SLURM job ("<array job>_<task>", "<job>" or "-"), pid and
// a random token that tells its claims from those of an earlier process with the same pid.
ClaimInfo this_process_claimant();

std::string format_claim(const ClaimInfo& c);
std::optional<ClaimInfo> read_claim(const std::string& path);  // nullopt: absent or not a claim

// Expired at `now`, or on `host` (this machine) with no process `pid` any more.
bool claim_is_stale(const ClaimInfo& c, int64_t now, const std::string& host);

// Creates the claim for `me` (expires now + ttl) unless a live one exists; then `holder` (when given)
// receives it. A stale claim is replaced.
bool try_claim(const std::string& path, const ClaimInfo& me, int ttl_seconds, ClaimInfo* holder = nullptr);
// Rewrites our claim with a new expiry (temporary file + rename); false when it is no longer ours.
bool refresh_claim(const std::string& path, const ClaimInfo& me, int ttl_seconds);
// Removes the claim when it is ours.
void release_claim(const std::string& path, const ClaimInfo& me);

// The claims one run holds, refreshed by a heartbeat thread until released. With `watch_signals`
// (SIGTERM and SIGINT blocked by the caller in every thread), the same thread waits for them and calls
// `on_signal(*this, sig)`, which must end the process.
class ClaimKeeper {
 public:
  ClaimKeeper(int ttl_seconds, bool watch_signals, std::function<void(ClaimKeeper&, int)> on_signal = {});
  ~ClaimKeeper();  // stops the heartbeat and releases what is still held
  ClaimKeeper(const ClaimKeeper&) = delete;
  ClaimKeeper& operator=(const ClaimKeeper&) = delete;

  bool acquire(const std::string& path, ClaimInfo* holder = nullptr);
  void release(const std::string& path);
  void release_all();
  // Releases everything and refuses further claims (the process is about to end).
  void close();
  const ClaimInfo& me() const { return me_; }

 private:
  void loop();
  ClaimInfo me_;
  int ttl_;
  bool watch_signals_;
  std::function<void(ClaimKeeper&, int)> on_signal_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false, closed_ = false;
  std::set<std::string> held_;
  std::thread thread_;
};

// Blocks SIGTERM and SIGINT in the calling thread (and so in every thread it starts later), for a
// ClaimKeeper that watches them.
void block_termination_signals();

}  // namespace dpf
