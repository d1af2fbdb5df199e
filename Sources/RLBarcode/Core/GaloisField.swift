/// A finite field GF(q) with log and antilog tables, for the Reed-Solomon
/// codes of the matrix symbologies.
///
/// Two kinds of field are built the same way:
/// - binary extension fields GF(2^m), whose elements are polynomials over
///   GF(2) reduced by a primitive polynomial; addition is exclusive or
///   (QR Code, Micro QR, Data Matrix, Aztec, MaxiCode);
/// - prime fields GF(p), whose elements are the integers modulo p, with a
///   primitive element `g`; addition is modulo p (PDF417 uses GF(929) with
///   g = 3).
///
/// In both, every non-zero element is a power of the primitive element
/// alpha, so multiplication and division go through the tables: `exp[i]` is
/// alpha^i (for i in 0 ..< 2(q - 1), doubled so that a sum of two logarithms
/// needs no reduction) and `log[a]` is i with alpha^i = a.
///
/// `generatorBase` is the first power b of alpha that is a root of a code's
/// generator polynomial g(x) = (x - alpha^b)(x - alpha^(b+1))...: 0 for QR
/// Code (ISO/IEC 18004:2015, 7.5.2), 1 for Data Matrix, Aztec and PDF417.
///
/// The tables are built once per field; the shared fields are `static let`s.
final class GaloisField: GaloisArithmetic, Sendable {
    /// The number of elements q (2^m or p).
    let size: Int
    /// q - 1: the multiplicative order of alpha, and the longest code word.
    let order: Int
    /// true for GF(2^m) (addition is exclusive or), false for a prime field.
    let isBinary: Bool
    /// The primitive polynomial (binary fields) or the primitive element
    /// (prime fields) the tables were built from.
    let primitive: Int
    /// The first power of alpha that is a root of the generator polynomial.
    let generatorBase: Int
    /// alpha^i for i in 0 ..< 2 * order.
    let exp: [UInt16]
    /// log_alpha(a) for a in 1 ..< size; `log[0]` is unused (0).
    let log: [UInt16]

    /// The field GF(2^`degree`) reduced by `primitivePolynomial`, which must
    /// be primitive of that degree (its x^degree bit set); alpha is x.
    init(degree: Int, primitivePolynomial: Int, generatorBase: Int) {
        precondition(degree >= 2 && degree <= 16, "GF(2^m) is built for 2 <= m <= 16")
        precondition(primitivePolynomial >> degree == 1, "the primitive polynomial must have degree m")
        size = 1 << degree
        order = size - 1
        isBinary = true
        primitive = primitivePolynomial
        self.generatorBase = generatorBase
        var exp = [UInt16](repeating: 0, count: 2 * order)
        var log = [UInt16](repeating: 0, count: size)
        var x = 1
        for i in 0..<order {
            exp[i] = UInt16(x)
            log[x] = UInt16(i)
            x <<= 1
            if x & size != 0 { x ^= primitivePolynomial }
        }
        precondition(x == 1, "the polynomial is not primitive")
        for i in order..<(2 * order) { exp[i] = exp[i - order] }
        self.exp = exp
        self.log = log
    }

    /// The prime field GF(`prime`) with primitive element `generator`
    /// (PDF417: 929 and 3).
    init(prime: Int, generator: Int, generatorBase: Int) {
        precondition(prime > 2 && prime <= 65_521, "prime field too small or too large for the tables")
        size = prime
        order = prime - 1
        isBinary = false
        primitive = generator
        self.generatorBase = generatorBase
        var exp = [UInt16](repeating: 0, count: 2 * order)
        var log = [UInt16](repeating: 0, count: size)
        var x = 1
        for i in 0..<order {
            exp[i] = UInt16(x)
            log[x] = UInt16(i)
            x = x * generator % prime
        }
        precondition(x == 1, "the generator is not primitive")
        for i in order..<(2 * order) { exp[i] = exp[i - order] }
        self.exp = exp
        self.log = log
    }

    // MARK: Shared fields

    /// QR Code and Micro QR: GF(256), x^8 + x^4 + x^3 + x^2 + 1 (0x11D),
    /// generator roots alpha^0 ... (ISO/IEC 18004:2015, 7.5.2).
    static let qrCode = GaloisField(degree: 8, primitivePolynomial: 0x11D, generatorBase: 0)
    /// Data Matrix ECC 200: GF(256), x^8 + x^5 + x^3 + x^2 + 1 (0x12D),
    /// generator roots alpha^1 ... (ISO/IEC 16022).
    static let dataMatrix = GaloisField(degree: 8, primitivePolynomial: 0x12D, generatorBase: 1)
    /// Aztec mode message: GF(16), x^4 + x + 1 (ISO/IEC 24778).
    static let aztecParameters = GaloisField(degree: 4, primitivePolynomial: 0x13, generatorBase: 1)
    /// Aztec 6-bit codewords (and MaxiCode): GF(64), x^6 + x + 1.
    static let aztecData6 = GaloisField(degree: 6, primitivePolynomial: 0x43, generatorBase: 1)
    /// Aztec 8-bit codewords: GF(256), 0x12D.
    static let aztecData8 = dataMatrix
    /// Aztec 10-bit codewords: GF(1024), x^10 + x^3 + 1.
    static let aztecData10 = GaloisField(degree: 10, primitivePolynomial: 0x409, generatorBase: 1)
    /// Aztec 12-bit codewords: GF(4096), x^12 + x^6 + x^5 + x^3 + 1.
    static let aztecData12 = GaloisField(degree: 12, primitivePolynomial: 0x1069, generatorBase: 1)
    /// PDF417: the prime field GF(929) with primitive element 3 (ISO/IEC 15438).
    static let pdf417 = GaloisField(prime: 929, generator: 3, generatorBase: 1)

    /// Runs `body` with the tables as raw buffers, for inner loops that
    /// should not touch the arrays (and their reference counts) per operation.
    @inline(__always)
    func withTables<R>(_ body: (GaloisTables) -> R) -> R {
        exp.withUnsafeBufferPointer { e in
            log.withUnsafeBufferPointer { l in
                body(GaloisTables(exp: e, log: l, size: size, order: order, isBinary: isBinary))
            }
        }
    }
}

/// The arithmetic of a `GaloisField` over borrowed table buffers, valid
/// only inside `GaloisField.withTables`, for inner loops.
struct GaloisTables: GaloisArithmetic {
    /// alpha^i for i in 0 ..< 2 * order.
    let exp: UnsafeBufferPointer<UInt16>
    /// log_alpha(a) for a in 1 ..< size.
    let log: UnsafeBufferPointer<UInt16>
    /// The number of elements.
    let size: Int
    /// size - 1.
    let order: Int
    /// Whether addition is exclusive or.
    let isBinary: Bool
}

/// Field arithmetic through the log and antilog tables, shared by a
/// ``GaloisField`` (its arrays) and ``GaloisTables`` (borrowed buffers).
protocol GaloisArithmetic {
    associatedtype Table: RandomAccessCollection where Table.Element == UInt16, Table.Index == Int
    /// alpha^i for i in 0 ..< 2 * order.
    var exp: Table { get }
    /// log_alpha(a) for a in 1 ..< size.
    var log: Table { get }
    /// The number of elements q.
    var size: Int { get }
    /// q - 1.
    var order: Int { get }
    /// Whether addition is exclusive or (GF(2^m)).
    var isBinary: Bool { get }
}

extension GaloisArithmetic {
    /// a + b.
    @inline(__always)
    func add(_ a: Int, _ b: Int) -> Int {
        if isBinary { return a ^ b }
        let s = a + b
        return s >= size ? s - size : s
    }

    /// a - b.
    @inline(__always)
    func subtract(_ a: Int, _ b: Int) -> Int {
        if isBinary { return a ^ b }
        let d = a - b
        return d < 0 ? d + size : d
    }

    /// -a.
    @inline(__always)
    func negate(_ a: Int) -> Int { isBinary || a == 0 ? a : size - a }

    /// a * b.
    @inline(__always)
    func multiply(_ a: Int, _ b: Int) -> Int {
        if a == 0 || b == 0 { return 0 }
        return Int(exp[Int(log[a]) &+ Int(log[b])])
    }

    /// a * alpha^e for 0 <= e < order: one table look-up fewer.
    @inline(__always)
    func multiply(_ a: Int, byPowerOfAlpha e: Int) -> Int {
        if a == 0 { return 0 }
        return Int(exp[Int(log[a]) &+ e])
    }

    /// 1 / a, for a != 0.
    @inline(__always)
    func inverse(_ a: Int) -> Int {
        assert(a != 0, "zero has no inverse")
        return Int(exp[order &- Int(log[a])])
    }

    /// a / b, for b != 0.
    @inline(__always)
    func divide(_ a: Int, _ b: Int) -> Int {
        assert(b != 0, "division by zero")
        if a == 0 { return 0 }
        return Int(exp[Int(log[a]) &+ order &- Int(log[b])])
    }

    /// alpha^e for any integer e (reduced modulo the order).
    @inline(__always)
    func power(_ e: Int) -> Int {
        var r = e % order
        if r < 0 { r += order }
        return Int(exp[r])
    }

    /// n * a, where n is an integer (n-fold sum): the coefficients of a
    /// formal derivative. In GF(2^m) this is a when n is odd, else 0.
    @inline(__always)
    func scale(_ a: Int, by n: Int) -> Int {
        if isBinary { return n & 1 == 1 ? a : 0 }
        return a * (n % size) % size
    }
}
