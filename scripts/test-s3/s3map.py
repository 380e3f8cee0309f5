"""A zarr-python 2.13 store over boto3: the second, independent S3 client the tests check z against.

zarr-python 2 takes any MutableMapping of str to bytes as a store; this one maps keys to objects of
a bucket under a prefix, with boto3 (Debian's python3-boto3) signing its own requests (SigV4, with
payload hashes over http). `S3Map.from_argv()` reads endpoint, bucket and prefix from sys.argv[1:4].
"""
import sys
from collections.abc import MutableMapping

import boto3
from botocore.config import Config


class S3Map(MutableMapping):
    def __init__(self, endpoint, bucket, prefix="", key="S3RVER", secret="S3RVER"):
        self.client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            aws_access_key_id=key,
            aws_secret_access_key=secret,
            region_name="us-east-1",
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"}, retries={"max_attempts": 5}),
        )
        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""

    @classmethod
    def from_argv(cls):
        return cls(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")

    def __getitem__(self, key):
        try:
            return self.client.get_object(Bucket=self.bucket, Key=self.prefix + key)["Body"].read()
        except self.client.exceptions.NoSuchKey:
            raise KeyError(key)

    def __setitem__(self, key, value):
        self.client.put_object(Bucket=self.bucket, Key=self.prefix + key, Body=bytes(memoryview(value)))

    def __delitem__(self, key):
        if key not in self:
            raise KeyError(key)
        self.client.delete_object(Bucket=self.bucket, Key=self.prefix + key)

    def __contains__(self, key):
        try:
            self.client.head_object(Bucket=self.bucket, Key=self.prefix + key)
            return True
        except self.client.exceptions.ClientError as error:
            if error.response["Error"]["Code"] in ("404", "NoSuchKey"):
                return False
            raise

    def __iter__(self):
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=self.prefix)
        for page in pages:
            for item in page.get("Contents", []):
                yield item["Key"][len(self.prefix):]

    def listdir(self, path=""):
        """The names directly under `path`, from one delimiter listing (zarr-python asks for them so)."""
        prefix = self.prefix + (path.strip("/") + "/" if path.strip("/") else "")
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix, Delimiter="/")
        names = set()
        for page in pages:
            names.update(item["Key"][len(prefix):] for item in page.get("Contents", []))
            names.update(item["Prefix"][len(prefix):].rstrip("/") for item in page.get("CommonPrefixes", []))
        return sorted(name for name in names if name)

    def __len__(self):
        return sum(1 for _ in self)
