/// The file name of the database of one account on one server: `server@account.sqlite`, or
/// `server.sqlite` without an account (the sandbox: `sandbox.sqlite`).
///
/// The name is safe whatever the input: the server keeps only `[a-z0-9._-]` (lowercased, as
/// host names compare), the account only `[A-Za-z0-9._@-]`; anything else becomes `_`, so no
/// `/` or `..` path can come out, and `@` separates the two parts unambiguously (a server never
/// keeps one). A name that would start with a dot (a hidden file) starts with `_`, and each
/// part is cut to 100 characters so that the name stays under every file system's limit.
enum StateFileName {
    static func make(server: String, account: String?) -> String {
        var name = part(server.lowercased(), allowing: "._-")
        if name.isEmpty { name = "_" }
        if let account {
            let account = part(account, allowing: "._@-")
            name += "@" + (account.isEmpty ? "_" : account)
        }
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return name + ".sqlite"
    }

    private static func part(_ text: String, allowing punctuation: String) -> String {
        String(
            text.unicodeScalars.prefix(100).map { scalar -> Character in
                let ascii = scalar.isASCII
                    && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
                return ascii || punctuation.unicodeScalars.contains(scalar) ? Character(scalar) : "_"
            }
        )
    }
}
