#include "coordinator/fleet/certs.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/errno_text.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench {

namespace {

namespace fs = std::filesystem;

struct EvpPkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, EvpPkeyFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Bio = std::unique_ptr<BIO, BioFree>;

absl::Status OpenSslError(const std::string& what) {
  std::string text;
  unsigned long code = 0;
  while ((code = ERR_get_error()) != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof(buf));
    absl::StrAppend(&text, text.empty() ? "" : "; ", buf);
  }
  return absl::InternalError(
      absl::StrCat("OpenSSL: ", what, " failed", text.empty() ? "" : ": ", text));
}

absl::StatusOr<Key> NewKey() {
  Key key(EVP_EC_gen("P-256"));
  if (!key) return OpenSslError("generating an EC P-256 key");
  return key;
}

bool IsIpAddress(const std::string& name) {
  unsigned char buf[16];
  return inet_pton(AF_INET, name.c_str(), buf) == 1 || inet_pton(AF_INET6, name.c_str(), buf) == 1;
}

absl::Status CheckName(const std::string& name) {
  if (name.empty() || name.size() > 253 ||
      name.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-:*") !=
          std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", name, "' is not a host name or IP address (letters, digits, '.', '-')"));
  }
  return absl::OkStatus();
}

absl::Status AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return OpenSslError(absl::StrCat("making extension ", OBJ_nid2sn(nid)));
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  if (ok != 1) return OpenSslError("adding an extension");
  return absl::OkStatus();
}

struct Subject {
  std::string common_name;
  std::vector<std::string> sans;  // empty: no subjectAltName
  enum class Kind { kCa, kClient, kServer } kind;
};

// Signs with `issuer_key` (self-signed when issuer is null).
absl::StatusOr<Cert> MakeCertificate(const Subject& subject, EVP_PKEY* key, X509* issuer,
                                     EVP_PKEY* issuer_key, int days) {
  Cert cert(X509_new());
  if (!cert) return OpenSslError("X509_new");
  X509_set_version(cert.get(), 2);  // v3
  // 159-bit random serial (positive, < 20 bytes), as RFC 5280 asks.
  unsigned char serial_bytes[20];
  if (RAND_bytes(serial_bytes, sizeof(serial_bytes)) != 1) return OpenSslError("RAND_bytes");
  serial_bytes[0] &= 0x7f;
  BIGNUM* serial = BN_bin2bn(serial_bytes, sizeof(serial_bytes), nullptr);
  if (serial == nullptr ||
      BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get())) == nullptr) {
    BN_free(serial);
    return OpenSslError("setting the serial number");
  }
  BN_free(serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -300);  // tolerate 5 min of clock skew
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(days) * 24 * 3600);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("azbench"), -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(subject.common_name.c_str()),
                             -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  if (X509_set_pubkey(cert.get(), key) != 1) return OpenSslError("X509_set_pubkey");

  switch (subject.kind) {
    case Subject::Kind::kCa:
      RETURN_IF_ERROR(
          AddExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0"));
      RETURN_IF_ERROR(
          AddExtension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign"));
      break;
    case Subject::Kind::kClient:
      RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE"));
      RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_key_usage, "critical,digitalSignature"));
      RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_ext_key_usage, "clientAuth"));
      break;
    case Subject::Kind::kServer:
      RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE"));
      RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_key_usage, "critical,digitalSignature"));
      RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_ext_key_usage, "serverAuth"));
      break;
  }
  if (!subject.sans.empty()) {
    std::vector<std::string> entries;
    for (const std::string& san : subject.sans) {
      entries.push_back(absl::StrCat(IsIpAddress(san) ? "IP:" : "DNS:", san));
    }
    RETURN_IF_ERROR(
        AddExtension(cert.get(), signer, NID_subject_alt_name, absl::StrJoin(entries, ",")));
  }
  RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_subject_key_identifier, "hash"));
  if (issuer != nullptr) {
    RETURN_IF_ERROR(AddExtension(cert.get(), signer, NID_authority_key_identifier, "keyid:always"));
  }
  if (X509_sign(cert.get(), issuer_key, EVP_sha256()) == 0) return OpenSslError("X509_sign");
  return cert;
}

// Writes `text` to a new file with `mode` (O_EXCL unless force), so a key is never readable by
// others, not even for a moment.
absl::Status WriteNewFile(const std::string& path, const std::string& text, mode_t mode,
                          bool force) {
  if (force) (void)unlink(path.c_str());
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    return ErrnoStatus(errno, absl::StrCat("cannot create '", path, "'"));
  }
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;  // write(2) returning 0 sets no errno
      close(fd);
      return ErrnoStatus(error, absl::StrCat("cannot write '", path, "'"));
    }
    done += static_cast<size_t>(n);
  }
  fchmod(fd, mode);  // the umask may have removed bits from a certificate's 0644
  if (close(fd) != 0) {
    return ErrnoStatus(errno, absl::StrCat("cannot write '", path, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> CertPem(X509* cert) {
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) return OpenSslError("PEM_write_bio_X509");
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(n));
}

absl::StatusOr<std::string> KeyPem(EVP_PKEY* key) {
  Bio bio(BIO_new(BIO_s_mem()));
  if (!bio ||
      PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return OpenSslError("PEM_write_bio_PrivateKey");
  }
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(n));
}

struct AgentEntry {
  std::string name;
  std::vector<std::string> sans;
};

absl::StatusOr<std::vector<AgentEntry>> ParseAgents(const std::vector<std::string>& specs) {
  if (specs.empty()) {
    return absl::InvalidArgumentError(
        "give at least one --agent NAME_OR_IP (its certificate names it; NAME=ALT1,ALT2 adds "
        "names)");
  }
  std::vector<AgentEntry> agents;
  for (const std::string& spec : specs) {
    AgentEntry entry;
    const size_t eq = spec.find('=');
    entry.name = spec.substr(0, eq);
    RETURN_IF_ERROR(CheckName(entry.name));
    if (entry.name.find(':') != std::string::npos || entry.name.find('*') != std::string::npos) {
      // The name is also a file name: keep IPv6 / wildcards to the alternative names.
      return absl::InvalidArgumentError(
          absl::StrCat("--agent '", spec,
                       "': the first name names the files; give an IPv6 address or a "
                       "wildcard as an alternative name (NAME=ALT)"));
    }
    entry.sans.push_back(entry.name);
    if (eq != std::string::npos) {
      for (absl::string_view alt : absl::StrSplit(spec.substr(eq + 1), ',', absl::SkipEmpty())) {
        RETURN_IF_ERROR(CheckName(std::string(alt)));
        entry.sans.emplace_back(alt);
      }
    }
    for (const AgentEntry& seen : agents) {
      if (seen.name == entry.name) {
        return absl::InvalidArgumentError(
            absl::StrCat("--agent '", entry.name, "' is given twice"));
      }
    }
    agents.push_back(std::move(entry));
  }
  return agents;
}

}  // namespace

absl::StatusOr<CertsInitResult> InitCertificates(const CertsInitOptions& options) {
  if (options.dir.empty()) return absl::InvalidArgumentError("give --dir DIR");
  if (options.days < 1 || options.days > 36500) {
    return absl::InvalidArgumentError(absl::StrCat("--days must be 1..36500, got ", options.days));
  }
  ASSIGN_OR_RETURN(std::vector<AgentEntry> agents, ParseAgents(options.agents));
  const fs::path dir(options.dir);
  std::vector<std::string> planned = {(dir / "ca.crt").string(), (dir / "ca.key").string(),
                                      (dir / "coordinator.crt").string(),
                                      (dir / "coordinator.key").string()};
  for (const AgentEntry& a : agents) {
    planned.push_back((dir / "agents" / (a.name + ".crt")).string());
    planned.push_back((dir / "agents" / (a.name + ".key")).string());
  }
  if (!options.force) {
    std::vector<std::string> existing;
    for (const std::string& p : planned) {
      std::error_code ec;
      if (fs::exists(fs::symlink_status(p, ec))) existing.push_back(p);
    }
    if (!existing.empty()) {
      return absl::AlreadyExistsError(
          absl::StrCat("refusing to overwrite ", absl::StrJoin(existing, ", "),
                       " (use another --dir, or --force to replace them)"));
    }
  }
  std::error_code ec;
  fs::create_directories(dir / "agents", ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create '", (dir / "agents").string(), "': ", ec.message()));
  }

  CertsInitResult result;
  auto write = [&](const fs::path& path, const std::string& text, mode_t mode) -> absl::Status {
    RETURN_IF_ERROR(WriteNewFile(path.string(), text, mode, options.force));
    result.files.push_back(path.string());
    return absl::OkStatus();
  };
  auto write_pair = [&](const fs::path& base, X509* cert, EVP_PKEY* key) -> absl::Status {
    ASSIGN_OR_RETURN(std::string key_pem, KeyPem(key));
    ASSIGN_OR_RETURN(std::string cert_pem, CertPem(cert));
    RETURN_IF_ERROR(write(base.string() + ".key", key_pem, 0600));
    return write(base.string() + ".crt", cert_pem, 0644);
  };

  ASSIGN_OR_RETURN(Key ca_key, NewKey());
  ASSIGN_OR_RETURN(Cert ca, MakeCertificate({"azbench fleet CA", {}, Subject::Kind::kCa},
                                            ca_key.get(), nullptr, ca_key.get(), options.days));
  RETURN_IF_ERROR(write_pair(dir / "ca", ca.get(), ca_key.get()));

  ASSIGN_OR_RETURN(Key coordinator_key, NewKey());
  ASSIGN_OR_RETURN(Cert coordinator,
                   MakeCertificate({"azbench coordinator", {}, Subject::Kind::kClient},
                                   coordinator_key.get(), ca.get(), ca_key.get(), options.days));
  RETURN_IF_ERROR(write_pair(dir / "coordinator", coordinator.get(), coordinator_key.get()));

  for (const AgentEntry& a : agents) {
    ASSIGN_OR_RETURN(Key key, NewKey());
    ASSIGN_OR_RETURN(Cert cert, MakeCertificate({a.name, a.sans, Subject::Kind::kServer}, key.get(),
                                                ca.get(), ca_key.get(), options.days));
    RETURN_IF_ERROR(write_pair(dir / "agents" / a.name, cert.get(), key.get()));
  }
  return result;
}

int CertsCommand(const std::vector<std::string>& args) {
  constexpr char kUsage[] =
      "usage: azbench certs init --dir DIR --agent NAME_OR_IP[=ALT,...] [--agent ...] "
      "[--days N] [--force]\n";
  if (args.empty() || args[0] != "init") {
    std::cerr << kUsage;
    return 2;
  }
  CertsInitOptions options;
  bool days_given = false;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string flag = args[i], value;
    const size_t eq = flag.find('=');
    const bool has_inline = eq != std::string::npos && flag.rfind("--", 0) == 0;
    if (has_inline) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "--force") {
      // "--force=false" must not replace a CA: a switch's value is read, never ignored.
      absl::StatusOr<bool> on = has_inline ? ParseBool(value) : absl::StatusOr<bool>(true);
      if (!on.ok()) {
        std::cerr << "azbench certs: --force is a switch: give it alone, or as --force=true / "
                     "--force=false\n";
        return 2;
      }
      options.force = *on;
      continue;
    }
    if (flag != "--dir" && flag != "--agent" && flag != "--days") {
      std::cerr << "azbench certs: unknown argument '" << flag
                << "' (allowed: --dir, --agent, --days, --force)\n"
                << kUsage;
      return 2;
    }
    if (!has_inline) {
      if (i + 1 >= args.size()) {
        std::cerr << "azbench certs: " << flag << " needs a value\n";
        return 2;
      }
      value = args[++i];
    }
    if ((flag == "--dir" && !options.dir.empty()) || (flag == "--days" && days_given)) {
      std::cerr << "azbench certs: " << flag << " is given twice: give it once\n";
      return 2;
    }
    if (flag == "--dir") options.dir = value;
    if (flag == "--agent") options.agents.push_back(value);
    if (flag == "--days") {
      absl::StatusOr<int64_t> days = ParseInt(value, 1, 36500);
      if (!days.ok()) {
        std::cerr << "azbench certs: --days: " << days.status().message() << "\n";
        return 2;
      }
      options.days = static_cast<int>(*days);
      days_given = true;
    }
  }
  absl::StatusOr<CertsInitResult> result = InitCertificates(options);
  if (!result.ok()) {
    std::cerr << "azbench certs init: " << result.status().message() << "\n";
    return result.status().code() == absl::StatusCode::kInternal ? 1 : 2;
  }
  for (const std::string& file : result->files) std::cout << "wrote " << file << "\n";
  std::cout << "copy ca.crt and agents/NAME.{crt,key} to each agent (tls: {cert_file, key_file, "
               "ca_file}); keep ca.key offline; give the coordinator --tls-ca ca.crt --tls-cert "
               "coordinator.crt --tls-key coordinator.key (or fleet.tls)\n";
  return 0;
}

}  // namespace azbench
