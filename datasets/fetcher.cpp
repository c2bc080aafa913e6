#include "datasets/fetcher.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "core/util/error.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace dpf {

namespace {

// Hashing every file on every load would cost more than parsing it; remember verified files by
// (path, size, modification time) for the life of the process.
std::mutex verified_mutex;
std::map<std::tuple<std::string, uintmax_t, long long>, std::string> verified_hash;

std::string hash_of(const fs::path& p) {
  std::error_code ec;
  auto size = fs::file_size(p, ec);
  auto mtime = fs::last_write_time(p, ec).time_since_epoch().count();
  auto key = std::make_tuple(p.string(), size, static_cast<long long>(mtime));
  {
    std::lock_guard<std::mutex> lock(verified_mutex);
    auto it = verified_hash.find(key);
    if (it != verified_hash.end()) return it->second;
  }
  std::string h = sha256_file(p.string());
  std::lock_guard<std::mutex> lock(verified_mutex);
  verified_hash[key] = h;
  return h;
}

// Empty string when the file at p is the registry's file, else what is wrong with it. Entries that
// are not mirrored may lack a checksum; then only the size is checked (when known).
std::string check(const fs::path& p, const DatasetFile& file) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return "absent";
  if (file.sha256.empty()) {
    if (file.bytes != 0 && fs::file_size(p, ec) != file.bytes)
      return "has " + std::to_string(fs::file_size(p, ec)) + " bytes, expected " + std::to_string(file.bytes);
    return "";
  }
  std::string h = hash_of(p);
  if (h != file.sha256) return "is corrupt (sha256 " + h + ", expected " + file.sha256 + ")";
  return "";
}

int run_curl(const std::string& url, const std::string& out) {
  std::vector<std::string> args = {"curl", "-fsSL", "--max-time", "120", "-o", out, url};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, "curl", nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string fetch_file(const DatasetEntry& entry, const DatasetFile& file, const DataOptions& options) {
  std::vector<std::string> tried;
  fs::path cached = fs::path(options.cache) / entry.id / file.name;
  std::string why = check(cached, file);
  if (why.empty()) return cached.string();
  tried.push_back("cache " + cached.string() + ": " + why);
  if (!options.mirror.empty()) {
    fs::path mirrored = fs::path(options.mirror) / entry.id / file.name;
    why = check(mirrored, file);
    if (why.empty()) return mirrored.string();
    tried.push_back("mirror " + mirrored.string() + ": " + why);
  } else {
    tried.push_back("no mirror (DPFOREST_MIRROR unset and ../shared/datasets absent)");
  }
  if (file.url.empty()) {
    tried.push_back("no download URL in the registry");
  } else if (file.sha256.empty()) {
    tried.push_back("no checksum in the registry to verify a download against; fetch it by hand");
  } else if (!options.allow_download) {
    tried.push_back("download not attempted (downloads disabled, DPFOREST_OFFLINE)");
  } else {
    std::error_code ec;
    fs::create_directories(cached.parent_path(), ec);
    fs::path tmp = cached;
    tmp += ".part." + std::to_string(::getpid());
    int rc = run_curl(file.url, tmp.string());
    if (rc == 0) {
      why = check(tmp, file);
      if (why.empty()) {
        fs::rename(tmp, cached, ec);  // atomic within the cache folder
        if (!ec) return cached.string();
        why = "cannot move into the cache: " + ec.message();
      }
      tried.push_back("download " + why);
    } else {
      tried.push_back("download failed (curl exit code " + std::to_string(rc) + ")");
    }
    fs::remove(tmp, ec);
  }
  std::ostringstream os;
  os << "dataset '" << entry.id << "': no verified copy of file '" << file.name << "' (URL: "
     << (file.url.empty() ? "none" : file.url) << ")";
  for (const auto& t : tried) os << "; " << t;
  os << ". To fix: set DPFOREST_MIRROR to a folder holding " << entry.id << "/" << file.name
     << ", or place the file at " << cached.string() << ", or run `make datasets` with network access.";
  if (!entry.note.empty()) os << " Note: " << entry.note;
  throw MissingInput(os.str());
}

std::vector<VerifyReport> verify_datasets(const std::vector<std::string>& ids, const DataOptions& options) {
  std::vector<std::string> wanted = ids.empty() ? dataset_ids() : ids;
  std::vector<VerifyReport> out;
  for (const auto& id : wanted) {
    VerifyReport rep;
    rep.id = id;
    try {
      const DatasetEntry& e = dataset_entry(id);
      std::string msg;
      for (const auto& f : e.files) {
        std::string path = fetch_file(e, f, options);
        std::string from = path.rfind(options.cache, 0) == 0 ? "cache" : "mirror";
        msg += (msg.empty() ? "" : ", ") + f.name + " (" + from + ")";
      }
      rep.ok = true;
      rep.message = msg;
    } catch (const Error& ex) {
      rep.ok = false;
      rep.message = ex.what();
    }
    out.push_back(std::move(rep));
  }
  return out;
}

}  // namespace dpf
