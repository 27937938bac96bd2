"""One error shape for the whole API: {"error": {"code", "message", "details"}} plus DRF's field errors."""
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "error" in data:
        return response
    code = getattr(exc, "default_code", "error")
    detail = getattr(exc, "detail", None)
    if isinstance(data, dict) and set(data) == {"detail"}:
        message = str(data["detail"])
        details = None
    else:
        message = "The request is not valid." if response.status_code == 400 else str(detail or "Error")
        details = data
    response.data = {"error": {"code": str(getattr(detail, "code", code) or code), "message": message, "details": details}}
    return response
