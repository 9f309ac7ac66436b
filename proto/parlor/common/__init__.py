"""What every Parlor process shares: configuration from the environment
(config), the error codes and their gRPC form (errors), JSON logging (logs).
The service, the gateway and the worker import it; none imports another's code."""
