#pragma once
// Puts a fake service (LocoService, LightService: anything with handle(now, api_id, body) ->
// Answer) behind transport::RpcServer<booster::BoosterRpcTraits>:
//
//   server.poll([&](const auto& request, auto& response) { return serve(service, request, response); });
//
// The response echoes the request's uuid and carries {"status": N}. A request header that cannot be
// read is answered 400 with the reason. A delayed answer blocks the polling thread for the delay; a
// withheld one (Answer::never) goes out with the interim status -1, which clients keep waiting past
// until their timeout. Fire-and-forget calls are answered too: their client is no longer listening
// for that uuid and drops it.

#include <memory>
#include <string>
#include <thread>

#include <praxis/hardware/booster/rpc.hpp>

#include "service.hpp"

namespace praxis::fake_booster {

// The strings a response points into; RpcServer keeps it alive until the response is written.
struct ResponseStorage {
  std::string uuid, header, body;
};

template <class Service>
std::unique_ptr<ResponseStorage> serve(Service& service, const booster_msgs_msg_dds__RpcReqMsg_& request,
                                       booster_msgs_msg_dds__RpcRespMsg_& response) {
  auto storage = std::make_unique<ResponseStorage>();
  storage->uuid = request.uuid != nullptr ? request.uuid : "";
  Answer answer;
  try {
    const auto header = booster::parse_request_header(request.header != nullptr ? request.header : "");
    answer = service.handle(Clock::now(), header.api_id, request.body != nullptr ? request.body : "");
  } catch (const transport::RpcError& e) {
    answer = {booster::status::k_bad_request, detail::message_body(e.what())};
  }
  if (answer.never) {
    answer.status = booster::status::k_pending;
  } else if (answer.delay > Duration::zero()) {
    std::this_thread::sleep_for(answer.delay);
  }
  storage->header = booster::response_header(answer.status);
  storage->body = std::move(answer.body);
  response.uuid = storage->uuid.data();
  response.header = storage->header.data();
  response.body = storage->body.data();
  return storage;
}

}  // namespace praxis::fake_booster
