"""The service's database: engine and migrations, tables, and the rows kept between requests."""
