package parquet
