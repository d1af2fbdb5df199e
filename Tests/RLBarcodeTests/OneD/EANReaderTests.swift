import XCTest
@testable import RLBarcode

/// Every EAN/UPC variant on pictures drawn from zint's module patterns.
final class EANReaderTests: XCTestCase {
    /// Draws `row` upright in a small picture and scans it.
    private func read(_ row: ZintRow, module: Double = 2, options: ScanOptions = ScanOptions()) -> [BarcodeResult] {
        let w = Int(Double(row.modules.count + 30) * module) + 20
        var pic = TestPicture(width: w, height: 120)
        pic.draw(row, .init(cx: Double(w) / 2, cy: 60, module: module, barHeight: 40))
        return pic.scan(options)
    }

    func testEAN13() throws {
        for data in ["5901234123457", "4006381333931", "9780201379624", "0000000000000", "8888888888888"] {
            let r = read(try ZintRow.make(.eanx, data), options: ScanOptions(symbologies: .ean13))
            XCTAssertEqual(r.count, 1, data)
            XCTAssertEqual(r.first?.text, data)
            XCTAssertEqual(r.first?.symbology, .ean13)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]E0")
            XCTAssertEqual(r.first?.bytes, Array(data.utf8))
            XCTAssertEqual(r.first?.addOn, "")
        }
    }

    func testUPCAIsReportedAsThirteenDigitGTIN() throws {
        let r = read(try ZintRow.make(.upca, "01234567890"))
        XCTAssertEqual(r.count, 1)
        XCTAssertEqual(r.first?.symbology, .upcA)
        XCTAssertEqual(r.first?.text, "0012345678905")
        XCTAssertEqual(r.first?.extendedText, "012345678905")
        // With UPC-A off, the same symbol is an EAN-13 with a leading 0.
        let e = read(try ZintRow.make(.upca, "01234567890"), options: ScanOptions(symbologies: .ean13))
        XCTAssertEqual(e.first?.symbology, .ean13)
        XCTAssertEqual(e.first?.text, "0012345678905")
        // With EAN-13 off, an EAN-13 not starting with 0 is not reported.
        XCTAssertTrue(read(try ZintRow.make(.eanx, "5901234123457"), options: ScanOptions(symbologies: .upcA)).isEmpty)
    }

    func testUPCEEveryExpansionAndBothNumberSystems() throws {
        // The last of the six digits selects the expansion rule (0-2, 3, 4, 5-9).
        for six in ["123450", "123451", "123452", "123453", "123454", "123455", "654329"] {
            for system in ["0", "1"] {
                let r = read(try ZintRow.make(.upce, system + six))
                XCTAssertEqual(r.count, 1, system + six)
                guard let code = r.first else { continue }
                XCTAssertEqual(code.symbology, .upcE)
                XCTAssertEqual(code.text.count, 13)
                XCTAssertTrue(code.text.hasPrefix("0" + system))
                XCTAssertEqual(code.extendedText.count, 8)
                XCTAssertEqual(String(code.extendedText.prefix(7)), system + six)
                XCTAssertEqual(code.extendedText.last, code.text.last, "check digit shared by both forms")
                XCTAssertEqual(expandUPCE(code.extendedText), code.text)
            }
        }
    }

    /// UPC-E, whose check digit is only its set pattern, needs a plain
    /// margin: a symbol whose sides run, a module off its guards, into faint
    /// stripes (lighter than halfway between its bars and spaces, as the
    /// blurred bars of another code are) is not read; with the stripes five
    /// modules off, it is.
    func testUPCEWithoutPlainMarginIsNotRead() throws {
        let row = try ZintRow.make(.upce, "0123456")
        for (gap, expected) in [(1.0, [String]()), (5.5, ["0012345000065"])] {
            let module = 2.0, n = Double(row.modules.count)
            let w = Int((n + 40) * module), cx = Double(w) / 2
            var pic = TestPicture(width: w, height: 120)
            pic.draw(row, .init(cx: cx, cy: 60, module: module, barHeight: 40))
            for side in [-1.0, 1.0] {
                // Stripes of one module, grey 150 and paper, over 10 modules.
                let from = cx + side * (n / 2 + gap) * module
                for k in 0..<10 where k % 2 == 0 {
                    let a = from + side * Double(k) * module, b = a + side * module
                    for y in 20..<100 {
                        for x in Int(min(a, b))..<Int(max(a, b)) { pic.pixels[y * pic.stride + x] = 150 }
                    }
                }
            }
            let r = pic.scan(ScanOptions(symbologies: .upcE))
            XCTAssertEqual(r.map(\.text), expected, "stripes \(gap) modules off the guards")
        }
    }

    /// A symbol seen at a steep angle, its modules narrowing to half
    /// towards its right end, on a dark surface: each quiet zone is
    /// measured in the module at its own end, where the far one holds its
    /// 6 modules (fewer than 5 of the symbol's mean module).
    func testQuietZonesInTheModuleAtTheirEnd() throws {
        for (kind, data, text) in [
            (ZintRow.Kind.eanx, "5901234123457", "5901234123457"), (.eanx, "9638507", "96385074"),
            (.upce, "0123456", "0012345000065")
        ] {
            let row = try ZintRow.make(kind, data)
            let module = 3.0
            let w = Int(Double(row.modules.count + 20) * module)
            var pic = TestPicture(width: w, height: 140, background: 70)
            pic.draw(
                row,
                .init(cx: Double(w) / 2 - 10, cy: 70, module: module, barHeight: 30, taper: 0.55, quietZone: 6))
            XCTAssertEqual(pic.scan().map(\.text), [text], data)
        }
    }

    /// The GS1 UPC-E to UPC-A expansion, written out independently of the reader.
    private func expandUPCE(_ e: String) -> String {
        let d = Array(e)
        let ns = String(d[0]), check = String(d[7])
        let x = d[1...6].map(String.init)
        let body: String
        switch x[5] {
        case "0", "1", "2": body = x[0] + x[1] + x[5] + "0000" + x[2] + x[3] + x[4]
        case "3": body = x[0] + x[1] + x[2] + "00000" + x[3] + x[4]
        case "4": body = x[0] + x[1] + x[2] + x[3] + "00000" + x[4]
        default: body = x[0] + x[1] + x[2] + x[3] + x[4] + "0000" + x[5]
        }
        return "0" + ns + body + check
    }

    func testEAN8() throws {
        for data in ["96385074", "12345670", "55123457"] {
            let r = read(try ZintRow.make(.eanx, String(data.prefix(7))))
            XCTAssertEqual(r.map(\.text), [data])
            XCTAssertEqual(r.first?.symbology, .ean8)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]E4")
        }
    }

    func testAddOns() throws {
        let cases: [(ZintRow.Kind, String, String, String)] = [
            (.eanx, "590123412345+12", "5901234123457", "12"),
            (.eanx, "978020137962+51299", "9780201379624", "51299"),
            (.eanx, "400638133393+00", "4006381333931", "00"),
            (.eanx, "400638133393+99999", "4006381333931", "99999"),
            (.upca, "01234567890+24", "0012345678905", "24"),
            (.upca, "01234567890+90000", "0012345678905", "90000"),
            (.upce, "0123456+07", "0012345000065", "07")
        ]
        for (kind, data, main, addOn) in cases {
            let r = read(try ZintRow.make(kind, data))
            XCTAssertEqual(r.count, 1, data)
            XCTAssertEqual(r.first?.text, main, data)
            XCTAssertEqual(r.first?.addOn, addOn, data)
            XCTAssertEqual(r.first?.symbologyIdentifier, "]E3", data)
        }
        // Add-ons switched off: the main code alone.
        let r = read(try ZintRow.make(.eanx, "978020137962+51299"), options: ScanOptions(symbologies: [.ean13]))
        XCTAssertEqual(r.first?.text, "9780201379624")
        XCTAssertEqual(r.first?.addOn, "")
    }

    func testCheckDigit() {
        let good: [UInt8] = [5, 9, 0, 1, 2, 3, 4, 1, 2, 3, 4, 5, 7]
        var bad = good
        bad[12] = 8
        XCTAssertTrue(good.withUnsafeBufferPointer { EANReader.checkDigitOK($0.baseAddress!, count: 13) })
        XCTAssertFalse(bad.withUnsafeBufferPointer { EANReader.checkDigitOK($0.baseAddress!, count: 13) })
    }

    func testCornersAndOrientationOfUprightCode() throws {
        let row = try ZintRow.make(.eanx, "5901234123457")
        var pic = TestPicture(width: 300, height: 140)
        pic.draw(row, .init(cx: 150, cy: 70, module: 2, barHeight: 40))
        let r = pic.scan()
        XCTAssertEqual(r.count, 1)
        guard let c = r.first else { return }
        XCTAssertEqual(c.orientation == 0 || c.orientation == 359 || c.orientation == 1, true, "\(c.orientation)")
        // The first corner is the code's top-left: left of centre, above it.
        XCTAssertLessThan(c.corners[0].x, 150 - 80)
        XCTAssertLessThan(c.corners[0].y, 70)
        XCTAssertGreaterThan(c.corners[2].x, 150 + 80)
        XCTAssertGreaterThan(c.corners[2].y, 70)
        let box = try XCTUnwrap(c.boundingBox(clippedTo: 300, 140))
        XCTAssertTrue(box.x >= 40 && box.x + box.width <= 260, "\(box)")
        // Corners outside the frame or not finite give no box.
        var outside = c
        outside.corners = outside.corners.map { Point(x: $0.x + 1000, y: $0.y) }
        XCTAssertNil(outside.boundingBox(clippedTo: 300, 140))
        outside.corners[0] = Point(x: .nan, y: 0)
        XCTAssertNil(outside.boundingBox(clippedTo: 300, 140))
    }
}
