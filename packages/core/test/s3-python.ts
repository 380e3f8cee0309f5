// Whether boto3 is here (Debian's python3-boto3, installed by scripts/ensure-python-zarr.sh), for
// the tests that check z on S3 against zarr-python through boto3.
import { spawnSync } from "node:child_process";

export const hasBoto3 = spawnSync("/usr/bin/python3", ["-c", "import boto3"], { stdio: "ignore" }).status === 0;
