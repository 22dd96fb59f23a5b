// `azbench certs init`, checked with OpenSSL itself: the chain verifies, the SANs and key usages
// are what TLS on each side needs, the keys are private, nothing is overwritten by accident.
#include "coordinator/fleet/certs.h"

#include <arpa/inet.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;

CertPtr LoadCert(const std::string& path) {
  FILE* f = fopen(path.c_str(), "r");
  X509* cert = f != nullptr ? PEM_read_X509(f, nullptr, nullptr, nullptr) : nullptr;
  if (f != nullptr) fclose(f);
  return CertPtr(cert, &X509_free);
}

bool KeyMatches(const std::string& key_path, X509* cert) {
  FILE* f = fopen(key_path.c_str(), "r");
  EVP_PKEY* key = f != nullptr ? PEM_read_PrivateKey(f, nullptr, nullptr, nullptr) : nullptr;
  if (f != nullptr) fclose(f);
  const bool ok = key != nullptr && X509_check_private_key(cert, key) == 1;
  EVP_PKEY_free(key);
  return ok;
}

// X509_verify_cert against the CA alone, for `purpose` (X509_PURPOSE_SSL_SERVER / _CLIENT).
bool Verifies(X509* ca, X509* cert, int purpose) {
  std::unique_ptr<X509_STORE, decltype(&X509_STORE_free)> store(X509_STORE_new(), &X509_STORE_free);
  X509_STORE_add_cert(store.get(), ca);
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx(X509_STORE_CTX_new(),
                                                                      &X509_STORE_CTX_free);
  X509_STORE_CTX_init(ctx.get(), store.get(), cert, nullptr);
  X509_STORE_CTX_set_purpose(ctx.get(), purpose);
  return X509_verify_cert(ctx.get()) == 1;
}

std::set<std::string> Sans(X509* cert) {
  std::set<std::string> out;
  auto* names =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
    if (name->type == GEN_DNS) {
      out.insert("DNS:" + std::string(reinterpret_cast<const char*>(
                              ASN1_STRING_get0_data(name->d.dNSName))));
    } else if (name->type == GEN_IPADD) {
      char text[INET6_ADDRSTRLEN] = {};
      const int length = ASN1_STRING_length(name->d.iPAddress);
      inet_ntop(length == 4 ? AF_INET : AF_INET6, ASN1_STRING_get0_data(name->d.iPAddress), text,
                sizeof(text));
      out.insert("IP:" + std::string(text));
    }
  }
  GENERAL_NAMES_free(names);
  return out;
}

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  stat(path.c_str(), &st);
  return st.st_mode & 0777;
}

class CertsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }
  testing::TempDir dir_;
};

TEST_F(CertsTest, ChainSansUsagesAndKeyModesAreRight) {
  const std::string d = dir_.File("certs");
  absl::StatusOr<CertsInitResult> result =
      InitCertificates({.dir = d, .agents = {"10.0.1.5", "agent-b=10.0.2.7,b.internal,fd00::7"}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->files.size(), 8u);

  CertPtr ca = LoadCert(d + "/ca.crt");
  CertPtr coordinator = LoadCert(d + "/coordinator.crt");
  CertPtr a = LoadCert(d + "/agents/10.0.1.5.crt");
  CertPtr b = LoadCert(d + "/agents/agent-b.crt");
  ASSERT_TRUE(ca && coordinator && a && b);
  EXPECT_EQ(X509_check_ca(ca.get()), 1);
  EXPECT_TRUE(Verifies(ca.get(), coordinator.get(), X509_PURPOSE_SSL_CLIENT));
  EXPECT_TRUE(Verifies(ca.get(), a.get(), X509_PURPOSE_SSL_SERVER));
  EXPECT_TRUE(Verifies(ca.get(), b.get(), X509_PURPOSE_SSL_SERVER));
  // Each certificate is good for its side only.
  EXPECT_FALSE(Verifies(ca.get(), coordinator.get(), X509_PURPOSE_SSL_SERVER));
  EXPECT_FALSE(Verifies(ca.get(), a.get(), X509_PURPOSE_SSL_CLIENT));

  EXPECT_EQ(Sans(a.get()), (std::set<std::string>{"IP:10.0.1.5"}));
  EXPECT_EQ(Sans(b.get()),
            (std::set<std::string>{"DNS:agent-b", "IP:10.0.2.7", "DNS:b.internal", "IP:fd00::7"}));
  EXPECT_EQ(X509_check_ip_asc(b.get(), "10.0.2.7", 0), 1);
  EXPECT_EQ(X509_check_host(b.get(), "b.internal", 0, 0, nullptr), 1);
  EXPECT_NE(X509_check_host(b.get(), "other.internal", 0, 0, nullptr), 1);

  EXPECT_TRUE(KeyMatches(d + "/ca.key", ca.get()));
  EXPECT_TRUE(KeyMatches(d + "/coordinator.key", coordinator.get()));
  EXPECT_TRUE(KeyMatches(d + "/agents/agent-b.key", b.get()));
  for (const char* key : {"/ca.key", "/coordinator.key", "/agents/10.0.1.5.key"}) {
    EXPECT_EQ(ModeOf(d + key), 0600u) << key;
  }
  EXPECT_EQ(ModeOf(d + "/ca.crt"), 0644u);
}

TEST_F(CertsTest, ValidityFollowsDays) {
  const std::string d = dir_.File("certs");
  ASSERT_TRUE(InitCertificates({.dir = d, .agents = {"a"}, .days = 10}).ok());
  CertPtr cert = LoadCert(d + "/agents/a.crt");
  ASSERT_TRUE(cert);
  int days = 0, seconds = 0;
  ASSERT_EQ(ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(cert.get()),
                           X509_get0_notAfter(cert.get())),
            1);
  EXPECT_EQ(days, 10);  // plus the 5 minutes of clock-skew tolerance before "now"
}

TEST_F(CertsTest, RefusesToOverwriteUnlessForced) {
  const std::string d = dir_.File("certs");
  ASSERT_TRUE(InitCertificates({.dir = d, .agents = {"a"}}).ok());
  CertPtr first = LoadCert(d + "/ca.crt");
  absl::StatusOr<CertsInitResult> again = InitCertificates({.dir = d, .agents = {"a"}});
  ASSERT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(std::string(again.status().message()), HasSubstr(d + "/ca.key"));
  ASSERT_TRUE(InitCertificates({.dir = d, .agents = {"a"}, .force = true}).ok());
  CertPtr second = LoadCert(d + "/ca.crt");
  EXPECT_NE(X509_cmp(first.get(), second.get()), 0) << "a new CA";
}

TEST_F(CertsTest, BadInputsAreRefused) {
  const std::string d = dir_.File("certs");
  EXPECT_EQ(InitCertificates({.dir = d}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(InitCertificates({.dir = d, .agents = {"a b"}}).status().message()),
              HasSubstr("not a host name"));
  EXPECT_THAT(std::string(InitCertificates({.dir = d, .agents = {"a", "a"}}).status().message()),
              HasSubstr("given twice"));
  EXPECT_THAT(std::string(InitCertificates({.dir = d, .agents = {"fd00::1"}}).status().message()),
              HasSubstr("alternative name"));
  EXPECT_EQ(InitCertificates({.dir = d, .agents = {"a"}, .days = 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(fs::exists(d + "/ca.key")) << "nothing written on a refusal";
}

}  // namespace
}  // namespace azbench
