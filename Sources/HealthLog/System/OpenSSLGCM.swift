internal import CCrypto

/// OpenSSL's AES-256-GCM, called through its default provider's own dispatch table
/// (`OSSL_PROVIDER_query_operation`, the functions of `provider-cipher(7)`) rather than
/// through EVP: EVP's first fetch in a process builds OpenSSL's map of every algorithm's
/// names and methods (about 6 million instructions, 1.2 ms, more than a rare-type query's
/// whole work), where loading the provider and finding its `AES-256-GCM` costs about
/// 0.1 million. The cipher is the same code EVP would run, with the CPU's AES and
/// carry-less multiply instructions where it has them. OpenSSL's configuration file is
/// not read: only the default provider's AES-256-GCM is used.
enum OpenSSLGCM {
    /// The provider's functions healthlog calls.
    struct Functions: @unchecked Sendable {
        let provider: UnsafeMutableRawPointer
        let newContext: OSSL_FUNC_cipher_newctx_fn
        let freeContext: OSSL_FUNC_cipher_freectx_fn
        let encryptInit: OSSL_FUNC_cipher_encrypt_init_fn
        let decryptInit: OSSL_FUNC_cipher_decrypt_init_fn
        let update: OSSL_FUNC_cipher_update_fn
        let final: OSSL_FUNC_cipher_final_fn
        let getParameters: OSSL_FUNC_cipher_get_ctx_params_fn
        let setParameters: OSSL_FUNC_cipher_set_ctx_params_fn
    }

    /// The default provider's AES-256-GCM, found once per process; `nil` when OpenSSL has
    /// no such provider or algorithm.
    static let functions: Functions? = {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_LOAD_CONFIG), nil)
        guard let provider = OSSL_PROVIDER_load(nil, "default"), let context = OSSL_PROVIDER_get0_provider_ctx(provider) else { return nil }
        var noCache: Int32 = 0
        guard var algorithm = OSSL_PROVIDER_query_operation(provider, OSSL_OP_CIPHER, &noCache) else { return nil }
        while let names = algorithm.pointee.algorithm_names {
            if names.names(algorithmName) { return functions(algorithm.pointee.implementation, provider: context) }
            algorithm += 1
        }
        return nil
    }()

    /// The name the provider lists the cipher under (its first name, before any alias).
    private static let algorithmName = "AES-256-GCM"

    /// The functions of one algorithm's dispatch table; `nil` when one is missing.
    private static func functions(_ table: UnsafePointer<OSSL_DISPATCH>?, provider: UnsafeMutableRawPointer) -> Functions? {
        var newContext: OSSL_FUNC_cipher_newctx_fn?
        var freeContext: OSSL_FUNC_cipher_freectx_fn?
        var encryptInit: OSSL_FUNC_cipher_encrypt_init_fn?
        var decryptInit: OSSL_FUNC_cipher_decrypt_init_fn?
        var update: OSSL_FUNC_cipher_update_fn?
        var final: OSSL_FUNC_cipher_final_fn?
        var getParameters: OSSL_FUNC_cipher_get_ctx_params_fn?
        var setParameters: OSSL_FUNC_cipher_set_ctx_params_fn?
        var entry = table
        while let current = entry, current.pointee.function_id != 0 {
            switch current.pointee.function_id {
            case OSSL_FUNC_CIPHER_NEWCTX: newContext = OSSL_FUNC_cipher_newctx(current)
            case OSSL_FUNC_CIPHER_FREECTX: freeContext = OSSL_FUNC_cipher_freectx(current)
            case OSSL_FUNC_CIPHER_ENCRYPT_INIT: encryptInit = OSSL_FUNC_cipher_encrypt_init(current)
            case OSSL_FUNC_CIPHER_DECRYPT_INIT: decryptInit = OSSL_FUNC_cipher_decrypt_init(current)
            case OSSL_FUNC_CIPHER_UPDATE: update = OSSL_FUNC_cipher_update(current)
            case OSSL_FUNC_CIPHER_FINAL: final = OSSL_FUNC_cipher_final(current)
            case OSSL_FUNC_CIPHER_GET_CTX_PARAMS: getParameters = OSSL_FUNC_cipher_get_ctx_params(current)
            case OSSL_FUNC_CIPHER_SET_CTX_PARAMS: setParameters = OSSL_FUNC_cipher_set_ctx_params(current)
            default: break
            }
            entry = current + 1
        }
        guard let newContext, let freeContext, let encryptInit, let decryptInit, let update, let final, let getParameters, let setParameters else { return nil }
        return Functions(
            provider: provider, newContext: newContext, freeContext: freeContext, encryptInit: encryptInit, decryptInit: decryptInit, update: update, final: final,
            getParameters: getParameters, setParameters: setParameters)
    }
}

extension UnsafePointer<CChar> {
    /// Whether this provider algorithm's colon-separated names start with `name`.
    fileprivate func names(_ name: String) -> Bool {
        let names = String(cString: self)
        return names == name || names.hasPrefix(name + ":")
    }
}
