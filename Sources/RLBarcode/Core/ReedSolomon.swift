/// Reed-Solomon codes over a `GaloisField`, as the matrix symbologies use
/// them (ISO/IEC 18004:2015, 7.5.2 for QR Code; the same construction serves
/// Data Matrix, Aztec and PDF417).
///
/// A code word of n symbols r_0 ... r_(n-1) is read as the polynomial
/// r(x) = r_0 x^(n-1) + ... + r_(n-1): the first symbol is the highest power,
/// the last `checkCount` symbols are the check symbols. The generator
/// polynomial is g(x) = (x - alpha^b)(x - alpha^(b+1))...(x - alpha^(b+c-1))
/// with b the field's `generatorBase` and c the number of check symbols.
/// Position i of the word has the error locator X = alpha^(n-1-i).
struct ReedSolomonDecoder: Sendable {
    /// The field the symbols belong to.
    let field: GaloisField

    init(field: GaloisField) { self.field = field }

    /// Corrects `word` in place: finds and repairs up to (c - e) / 2 symbol
    /// errors together with `e` erasures (known bad positions), where c is
    /// `checkCount`.
    ///
    /// The steps: syndromes S_j = r(alpha^(b+j)); the erasure locator seeds
    /// Berlekamp-Massey, which finds the errata locator Lambda(x); a Chien
    /// search finds its roots among the word's positions; Forney's formula
    /// e = -X^(1-b) Omega(1/X) / Lambda'(1/X), with
    /// Omega(x) = S(x) Lambda(x) mod x^c, gives the error values. After the
    /// repair the syndromes are computed again, and the word is accepted only
    /// when they are all zero; otherwise it is restored and nil returned.
    ///
    /// - Parameters:
    ///   - word: the n symbols, each in 0 ..< field.size; n <= q - 1.
    ///   - checkCount: c, how many trailing symbols are check symbols (>= 1).
    ///   - erasures: positions (indices into `word`) known to be unreliable;
    ///     distinct, at most c.
    ///   - maxErrors: the most errors (not erasures) to accept, below the
    ///     code's capacity when some check symbols are kept back to detect
    ///     miscorrections (ISO/IEC 18004:2015, 7.5.1, "misdecode protection").
    /// - Returns: how many symbols were changed (0 for a clean word), or nil
    ///   when the word cannot be corrected. On nil the word is unchanged.
    /// - Complexity: O(n * c). The work space is a small stack allocation;
    ///   nothing is allocated on the heap for c up to a few hundred.
    func correct<T: FixedWidthInteger>(
        _ word: UnsafeMutableBufferPointer<T>, checkCount: Int,
        erasures: UnsafeBufferPointer<Int> = UnsafeBufferPointer(start: nil, count: 0),
        maxErrors: Int = .max
    ) -> Int? {
        let n = word.count, c = checkCount, e = erasures.count
        guard c >= 1, c <= n, n <= field.order, e <= c else { return nil }
        let q = field.size
        for v in word {
            guard let i = Int(exactly: v), i >= 0, i < q else { return nil }
        }
        for k in 0..<e {
            let p = erasures[k]
            guard p >= 0 && p < n else { return nil }
            for l in 0..<k where erasures[l] == p { return nil }
        }
        let stride = c + 2
        return field.withTables { f in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 7 * stride) { scratch -> Int? in
                guard let base = scratch.baseAddress else { return nil }
                return correct(word, c, erasures, maxErrors, f, base, stride)
            }
        }
    }

    /// The body of `correct`, on the field's tables and a work space of
    /// 7 * `stride` integers.
    private func correct<T: FixedWidthInteger>(
        _ word: UnsafeMutableBufferPointer<T>, _ c: Int,
        _ erasures: UnsafeBufferPointer<Int>, _ maxErrors: Int,
        _ f: GaloisTables, _ base: UnsafeMutablePointer<Int>,
        _ stride: Int
    ) -> Int? {
        let n = word.count, e = erasures.count
        let syn = base, lambda = base + stride, prior = base + 2 * stride
        let next = base + 3 * stride, omega = base + 4 * stride
        let roots = base + 5 * stride, saved = base + 6 * stride
        if syndromes(word, c, f, into: syn) { return 0 }

        // Erasure locator Gamma(x) = prod (1 - X_k x); it seeds Lambda and B.
        for i in 0..<stride { lambda[i] = 0; prior[i] = 0 }
        lambda[0] = 1
        for k in 0..<e {
            let x = f.power(n - 1 - erasures[k])
            var i = k + 1
            while i >= 1 {
                lambda[i] = f.subtract(lambda[i], f.multiply(x, lambda[i - 1]))
                i -= 1
            }
        }
        for i in 0...c { prior[i] = lambda[i] }

        // Berlekamp-Massey, started after the erasures (Blahut's errata form).
        var length = e
        for k in e..<c {
            var delta = 0
            for i in 0...min(length, k) {
                delta = f.add(delta, f.multiply(lambda[i], syn[k - i]))
            }
            if delta != 0 {
                next[0] = lambda[0]
                for i in 1...c {
                    next[i] = f.subtract(lambda[i], f.multiply(delta, prior[i - 1]))
                }
                if 2 * length <= k + e {
                    let inv = f.inverse(delta)
                    for i in 0...c { prior[i] = f.multiply(lambda[i], inv) }
                    length = k + 1 + e - length
                } else {
                    shiftUp(prior, c)
                }
                for i in 0...c { lambda[i] = next[i] }
            } else {
                shiftUp(prior, c)
            }
        }
        let errors = length - e
        guard errors >= 0, errors <= maxErrors, 2 * errors + e <= c, length >= 1 else { return nil }
        var degree = c
        while degree > 0 && lambda[degree] == 0 { degree -= 1 }
        guard degree == length else { return nil }

        // Chien search over the positions the word has: Lambda(alpha^-(n-1-i)).
        var found = 0
        for i in 0..<n {
            let step = (f.order - (n - 1 - i) % f.order) % f.order
            var sum = lambda[0], xp = 0  // xp: the exponent of x^j
            for j in 1...degree {
                xp += step
                if xp >= f.order { xp -= f.order }
                sum = f.add(sum, f.multiply(lambda[j], byPowerOfAlpha: xp))
            }
            if sum == 0 {
                if found == degree { return nil }
                roots[found] = i
                found += 1
            }
        }
        guard found == degree else { return nil }

        // Omega(x) = S(x) Lambda(x) mod x^c.
        for k in 0..<c {
            var sum = 0
            for i in 0...min(k, degree) { sum = f.add(sum, f.multiply(lambda[i], syn[k - i])) }
            omega[k] = sum
        }

        // Forney.
        let b = field.generatorBase
        var changed = 0
        for r in 0..<found {
            let i = roots[r], power = n - 1 - i
            let xInverse = f.power(-power)
            var num = 0, xp = 1
            for k in 0..<c {
                num = f.add(num, f.multiply(omega[k], xp))
                xp = f.multiply(xp, xInverse)
            }
            var den = 0
            xp = 1
            for j in 1...degree {
                den = f.add(den, f.multiply(f.scale(lambda[j], by: j), xp))
                xp = f.multiply(xp, xInverse)
            }
            if den == 0 {
                restore(word, roots, saved, r)
                return nil
            }
            let value = f.negate(f.multiply(f.power((1 - b) * power), f.divide(num, den)))
            saved[r] = Int(word[i])
            if value != 0 {
                // A symbol type narrower than the field may not hold the result.
                guard let fixed = T(exactly: f.subtract(Int(word[i]), value)) else {
                    restore(word, roots, saved, r)
                    return nil
                }
                word[i] = fixed
                changed += 1
            }
        }
        // Accept only a word that is now a code word.
        if !syndromes(word, c, f, into: syn) {
            restore(word, roots, saved, found)
            return nil
        }
        return changed
    }

    /// Corrects an array in place; see `correct(_:checkCount:erasures:maxErrors:)`.
    func correct<T: FixedWidthInteger>(
        _ word: inout [T], checkCount: Int, erasures: [Int] = [],
        maxErrors: Int = .max
    ) -> Int? {
        word.withUnsafeMutableBufferPointer { w in
            erasures.withUnsafeBufferPointer { er in
                correct(w, checkCount: checkCount, erasures: er, maxErrors: maxErrors)
            }
        }
    }

    /// Whether every syndrome is zero. Writes S_j = r(alpha^(b+j)),
    /// j = 0 ..< c, to `syn`, as sums of r_i alpha^((b+j)(n-1-i)): symbol
    /// by symbol, each adding one term to every syndrome, so that the
    /// syndromes' sums are independent of one another (no chain of
    /// dependent table look-ups as in Horner's rule).
    @inline(__always)
    private func syndromes<T: FixedWidthInteger>(
        _ word: UnsafeMutableBufferPointer<T>, _ c: Int, _ f: GaloisTables,
        into syn: UnsafeMutablePointer<Int>
    ) -> Bool {
        let n = word.count, order = f.order, b = field.generatorBase % order
        for j in 0..<c { syn[j] = 0 }
        for i in 0..<n {
            let v = Int(word[i])
            if v == 0 { continue }
            let p = (n - 1 - i) % order
            var index = (Int(f.log[v]) + b * p) % order
            if f.isBinary {
                for j in 0..<c {
                    syn[j] ^= Int(f.exp[index])
                    index += p
                    if index >= order { index -= order }
                }
            } else {
                for j in 0..<c {
                    syn[j] = f.add(syn[j], Int(f.exp[index]))
                    index += p
                    if index >= order { index -= order }
                }
            }
        }
        for j in 0..<c where syn[j] != 0 { return false }
        return true
    }

    /// B(x) <- x B(x), dropping the term above x^c.
    @inline(__always)
    private func shiftUp(_ p: UnsafeMutablePointer<Int>, _ c: Int) {
        var i = c
        while i >= 1 { p[i] = p[i - 1]; i -= 1 }
        p[0] = 0
    }

    /// Puts back the first `count` symbols changed by Forney's step.
    private func restore<T: FixedWidthInteger>(
        _ word: UnsafeMutableBufferPointer<T>, _ roots: UnsafeMutablePointer<Int>,
        _ saved: UnsafeMutablePointer<Int>, _ count: Int
    ) {
        for r in 0..<count { word[roots[r]] = T(saved[r]) }
    }
}

/// Reed-Solomon encoding, the systematic form the symbologies specify: the
/// check symbols are the negated remainder of data(x) * x^c divided by the
/// generator polynomial (ISO/IEC 18004:2015, 7.5.2). The decoders do not
/// need it; tests and symbol generation do.
enum ReedSolomonEncoder {
    /// The generator polynomial (x - alpha^b) ... (x - alpha^(b+c-1)),
    /// highest power first, leading coefficient 1.
    static func generator(field: GaloisField, checkCount c: Int) -> [Int] {
        var g = [1]
        for j in 0..<c {
            let root = field.power(field.generatorBase + j)
            var h = [Int](repeating: 0, count: g.count + 1)
            for (i, coefficient) in g.enumerated() {
                h[i] = field.add(h[i], coefficient)
                h[i + 1] = field.subtract(h[i + 1], field.multiply(coefficient, root))
            }
            g = h
        }
        return g
    }

    /// The `checkCount` check symbols for `data` (each in 0 ..< field.size).
    static func checkSymbols(field: GaloisField, data: [Int], checkCount c: Int) -> [Int] {
        let g = generator(field: field, checkCount: c)
        var remainder = [Int](repeating: 0, count: c)
        for d in data {
            let factor = field.add(d, remainder[0])
            for i in 0..<(c - 1) {
                remainder[i] = field.subtract(remainder[i + 1], field.multiply(factor, g[i + 1]))
            }
            remainder[c - 1] = field.negate(field.multiply(factor, g[c]))
        }
        // The remainder R(x) = data(x) x^c mod g(x); the code word is data(x) x^c - R(x).
        return remainder.map { field.negate($0) }
    }
}
