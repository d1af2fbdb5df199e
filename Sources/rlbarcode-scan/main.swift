print("rlbarcode-scan: not built yet")
