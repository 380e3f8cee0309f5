// Python's `repr` of the value types this package prints or writes the way Python does (`.npy`
// headers, numpy-style array text): @z/meta's, under the names this package has used (`repr(str)`
// is @z/meta's `pythonStrRepr`).
export { pythonBytesRepr as pyBytesRepr, pythonTupleRepr as pyTupleRepr } from "@z/meta";
