import FeedlineAccounts
import FeedlineTestSupport
import Foundation
import Testing

/// PKCE pairs (RFC 7636): verifiers of the allowed length and alphabet, challenges that are the
/// unpadded base64url SHA-256 of the verifier, checked against published test vectors.
@Suite("PKCE")
struct PKCETests {
    @Test("RFC 7636 appendix B: the verifier dBjftJeZ… has the challenge E9Melhoa…")
    func rfcExample() throws {
        let pair = try #require(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(pair.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.method == "S256")
        #expect(!pair.description.contains(pair.verifier))
    }

    @Test(
        "the challenge is base64url(SHA-256) without padding: FIPS 180-4 / NIST SHA-256 vectors",
        arguments: [
            ("", "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"),  // e3b0c442…b855
            ("abc", "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"),  // ba7816bf…15ad
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "JI1qYdIGOLjlwCaTDD5gOaM85Flk_yFn9uzt1BnbBsE"),  // 248d6a61…06c1
            (String(repeating: "a", count: 1000), "Qe3s5C1j6Nm_UVqbppMuHCDLyfWl0TRkWttdsblzfqM"),
        ]
    )
    func sha256Vectors(_ message: String, _ challenge: String) {
        #expect(PKCE.challenge(for: message) == challenge)
    }

    @Test(
        "the hash pads every length right: messages ending just before, at and after a 64-byte block's length field",
        arguments: [
            (55, "DM2YXMikdnSvvwq_45oIcU58UonurTwUVH2ulHrqIHg"),
            (56, "UAq6u2YmwVVy_JAbcfLRXdqTHGvihm4BfYEiTZQpEfE"),
            (63, "enw-iYaAGtoYk9Wv7q3wAzvjo48PUA9mh9qX-DQtjm0"),
            (64, "GT_XfmYjqcwORfknL5fHXsb0fpgZ7nzugQiXX5xXuQM"),
            (119, "wE9J1nar5nxnb8Lm7A6LSF9P-dErn4kA1fNK_10eJig"),
            (120, "kHdw-O3a6Hwnf3kAvwYntLG5KUc71eFdmHyJ6cb9THI"),
        ]
    )
    func sha256BlockEdges(_ length: Int, _ challenge: String) {
        // The message cycles through 40 unreserved characters; the digests are Python's hashlib's.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-._~")
        let message = String((0..<length).map { alphabet[$0 % alphabet.count] })
        #expect(PKCE.challenge(for: message) == challenge)
    }

    @Test("fresh verifiers: 64 unreserved characters, each new; lengths clamp to 43–128; a seed replays")
    func verifiers() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let pair = PKCE()
            #expect(pair.verifier.count == PKCE.defaultLength)
            #expect(pair.verifier.allSatisfy(PKCE.unreservedCharacters.contains))
            #expect(pair.challenge == PKCE.challenge(for: pair.verifier))
            #expect(pair.challenge.count == 43)
            #expect(!pair.challenge.contains("=") && !pair.challenge.contains("+") && !pair.challenge.contains("/"))
            seen.insert(pair.verifier)
        }
        #expect(seen.count == 200)
        var generator = SeededGenerator(seed: 7)
        #expect(PKCE(length: 10, using: &generator).verifier.count == 43)
        #expect(PKCE(length: 500, using: &generator).verifier.count == 128)
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        #expect(PKCE(length: 50, using: &first) == PKCE(length: 50, using: &second))
        // Every character of the alphabet is used, none other: the draw is not stuck on a subset.
        var many = SeededGenerator(seed: 3)
        let letters = Set((0..<50).flatMap { _ in PKCE(length: 128, using: &many).verifier })
        #expect(letters == Set(PKCE.unreservedCharacters))
    }

    @Test("a given verifier must be 43–128 unreserved characters")
    func givenVerifiers() {
        #expect(PKCE(verifier: String(repeating: "a", count: 42)) == nil)
        #expect(PKCE(verifier: String(repeating: "a", count: 43)) != nil)
        #expect(PKCE(verifier: String(repeating: "~", count: 128)) != nil)
        #expect(PKCE(verifier: String(repeating: "a", count: 129)) == nil)
        #expect(PKCE(verifier: String(repeating: "a", count: 42) + "+") == nil)
        #expect(PKCE(verifier: String(repeating: "é", count: 50)) == nil)
    }
}
